"""Pure backgammon: positions, plays, notation, legal plays, results, ids and rulebook profiles."""
