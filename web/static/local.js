// bgledger serve: what the pad shows while its taps wait on this phone (offline.js keeps them).
// The server decides every line. Until it answers, the pad guesses the match after each tap
// kept, by the few rules its buttons already follow (the dice entered: the play; a play: the
// other player's roll, his hit due; a double: the other player's answer; a take: the doubler's
// roll; a drop: the next game; a hit: the other player's time runs), so that a scorekeeper
// goes on tapping a game with the network down. The guess is never sent anywhere: the
// server's show document replaces it as soon as one comes (pad.js folds only the lines still
// waiting over the last document the server sent). Also the clock's figures, which the pad
// counts on from the server's.
var bgledgerLocal = (function () {
  "use strict";
  function other(p) { return p === "a" ? "b" : "a"; }

  // an ISO time (the server's, to the microsecond) in ms since the epoch
  function ms(iso) { return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1")); }

  // player p's reserve at `now` (the server's clock, ms): the running player's delay is
  // spent first (delay_left_ms), then his reserve
  function figure(clock, p, now) {
    var left = clock.reserve_ms[p];
    if (clock.running === p) {
      var spent = now - ms(clock.as_of);
      left -= Math.max(0, spent - (clock.delay_left_ms || 0));
    }
    return Math.max(0, left);
  }
  function delayLeft(clock, now) {
    var left = clock.delay_left_ms || 0;
    if (!clock.running) { return left; }
    return Math.min(left, Math.max(0, left - (now - ms(clock.as_of))));
  }
  function clocked(doc) { return doc.clock && doc.clock.mode !== "none" && doc.clock.reserve_ms; }

  // the clock at `at` (ms): who ran until then is charged, `next` runs (null: the clock stops)
  function switchTo(doc, next, at) {
    var clock = doc.clock, ran = clock.running;
    if (ran) {
      var spent = at - ms(clock.as_of);
      clock.reserve_ms[ran] = clock.mode === "bronstein"
        ? Math.max(0, clock.reserve_ms[ran] - spent + Math.min(spent, clock.delay_ms || 0))
        : figure(clock, ran, at);
    }
    clock.running = next;
    clock.stopped = next ? null : "game-over";
    clock.delay_left_ms = next ? (clock.delay_ms || 0) : 0;
    clock.as_of = new Date(at).toISOString();
  }

  // what may happen next in a guessed document, until the server's answer (now) replaces it:
  // the table's lines of the few phases the guess reaches, the scorekeeper's kept as they were
  function guessNow(d) {
    var kept = (d.now ? d.now.allowed : []).filter(function (a) { return a.party === "scorekeeper"; });
    var table = [], name = function (p) { return d.players[p]; };
    var due = clocked(d) && d.clock.running && d.to_act && d.clock.running !== d.to_act
      && (d.phase === "roll" || d.phase === "doubled") ? d.clock.running : null;
    function add(party, line, words) { table.push({ party: party, verb: line, line: line, words: words }); }
    if (due) { add(due, "hit", name(due) + " hits the clock"); }
    if (d.phase === "between-games" || d.phase === "opening") { add("players", "opening", "opening roll"); }
    if (d.phase === "play") { add(d.turn, "move", name(d.turn) + " plays"); }
    // a cube statement standing (USBGF 4.4.3, 4.4.4): "I am going to double", "I would pass"
    function said(p, says) {
      return (d.statements || []).some(function (s) { return s.player === p && s.says === says; });
    }
    if (!due && d.phase === "roll") {
      if (!said(d.turn, "double")) { add(d.turn, "roll", name(d.turn) + " rolls"); }
      var crawford = d.crawford_rule && d.crawford === "crawford";
      if (!crawford && (!d.cube.owner || d.cube.owner === d.turn)) { add(d.turn, "double", name(d.turn) + " doubles"); }
    }
    if (!due && d.phase === "doubled") {
      if (!said(d.to_act, "pass")) { add(d.to_act, "take", name(d.to_act) + " takes"); }
      add(d.to_act, "drop", name(d.to_act) + " drops");
    }
    var turn = due ? name(due) + " to hit the clock" : d.to_act ? name(d.to_act) + " to act" : "";
    d.now = { says: "", turn: turn, cube: d.now ? d.now.cube : "", due: due, allowed: table.concat(kept), guessed: true };
    return d;
  }

  // the match after `line` (a line of the record language, as a button sends it) made at `at`
  // (the server's clock, ms): a new document, or null where the pad cannot tell
  function after(doc, line, at) {
    var d = guessed(doc, line, at);
    return d ? guessNow(d) : null;
  }
  function guessed(doc, line, at) {
    var words = line.replace(/^@\S+\s+/, "").trim().split(/\s+/);
    var verb = words[0], flagged = words.some(function (w) { return w.indexOf("--") === 0; });
    var dice = words.slice(1).filter(function (w) { return /^[1-6]$/.test(w); }).map(Number);
    var d = JSON.parse(JSON.stringify(doc)), phase = d.phase;
    if (phase === "over" || (d.breaks && d.breaks.on_break)) { return null; }
    // cube statements lapse as the server's fold has them: the doubler's with his double, the
    // roller's opponent's "I would pass" with his roll, all with the cube taken or the game over
    var kept = function (keep) { d.statements = (d.statements || []).filter(keep); };
    if (verb === "double" && phase === "roll") { kept(function (s) { return s.player !== d.turn; }); }
    if (verb === "roll" && phase === "roll") {
      kept(function (s) { return !(s.player === other(d.turn) && s.says === "pass"); });
    }
    if (verb === "take" || verb === "drop") { d.statements = []; }
    switch (verb) {
      case "opening":
        if (dice.length !== 2 || (phase !== "between-games" && phase !== "opening")) { return null; }
        if (phase === "between-games") { d.game += 1; d.cube = { value: 1, owner: null, offered: false }; }
        if (dice[0] === dice[1]) { d.phase = "opening"; return d; }  // a tie: they roll again
        d.phase = "play";
        d.turn = d.to_act = dice[0] > dice[1] ? "a" : "b";
        d.dice = [Math.max(dice[0], dice[1]), Math.min(dice[0], dice[1])];
        if (clocked(d)) { switchTo(d, d.turn, at); }
        return d;
      case "roll":
        if (dice.length !== 2 || flagged || (phase !== "roll" && phase !== "reroll")) { return null; }
        d.phase = "play";
        d.dice = dice;
        d.to_act = d.turn;
        return d;
      case "move":  // (a play that ends the game is the server's to tell)
        if (phase !== "play") { return null; }
        d.phase = "roll";
        d.turn = d.to_act = other(d.turn);
        d.dice = null;
        return d;
      case "double":
        if (flagged || phase !== "roll") { return null; }
        d.phase = "doubled";
        d.cube.offered = true;
        d.to_act = other(d.turn);
        return d;
      case "take":
        if (phase !== "doubled") { return null; }
        d.cube = { value: d.cube.value * 2, owner: d.to_act, offered: false };
        d.phase = "roll";
        d.to_act = d.turn;
        return d;
      case "drop":
        if (phase !== "doubled") { return null; }
        d.score[d.turn] += d.cube.value;
        d.cube.offered = false;
        d.winner = d.score[d.turn] >= d.length ? d.turn : null;
        d.phase = d.winner ? "over" : "between-games";
        d.turn = d.to_act = null;
        d.dice = null;
        if (clocked(d)) { switchTo(d, null, at); }
        return d;
      case "hit":
        if (!clocked(d) || !d.clock.running || words.length > 1) { return null; }
        switchTo(d, other(d.clock.running), at);
        return d;
    }
    return null;
  }

  return { after: after, figure: figure, delayLeft: delayLeft, ms: ms };
})();
