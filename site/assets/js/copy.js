// Copy buttons: put the exact text of a code block on the clipboard.
//
// navigator.clipboard exists only in secure contexts (https, localhost), and
// internal wikis are often served over plain http, so fall back to selecting
// the text in a hidden textarea and document.execCommand('copy').

function copyWithSelection(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.top = "-1000px";
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } finally {
    document.body.removeChild(area);
  }
  return copied;
}

async function copyText(text) {
  if (window.isSecureContext && navigator.clipboard && navigator.clipboard.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (err) {
      // Permission refused: the selection route may still work.
    }
  }
  return copyWithSelection(text);
}

function flash(button, label) {
  const original = button.dataset.label || button.textContent;
  button.dataset.label = original;
  button.textContent = label;
  window.setTimeout(() => {
    button.textContent = original;
  }, 2000);
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  const ok = await copyText(source.textContent);
  flash(button, ok ? "Copied" : "Press Ctrl+C");
  if (!ok) {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
});
