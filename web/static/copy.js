// bgledger serve: a copy button (data-copy="TEXT") puts its text on the clipboard and says so.
// Where the clipboard API is refused (a page served over plain http to another device), the
// text is selected instead, for the phone's own copy.
(function () {
  "use strict";
  function said(button, word) {
    var was = button.dataset.label || button.textContent;
    button.dataset.label = was;
    button.textContent = word;
    setTimeout(function () { button.textContent = was; }, 1500);
  }
  function select(button) {
    var near = button.parentNode.querySelector(".id-value, .copy-text, a");
    if (!near) { return; }
    var range = document.createRange();
    range.selectNodeContents(near);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) { return; }
    var text = button.dataset.copy;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { said(button, "copied"); },
        function () { select(button); said(button, "selected"); });
    } else {
      select(button);
      try { document.execCommand("copy"); said(button, "copied"); } catch (e) { said(button, "selected"); }
    }
  });
})();
