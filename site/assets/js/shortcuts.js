// "/" from anywhere on a page puts the cursor in the header's search field (as on GitHub and MDN),
// unless the reader is already typing somewhere: then "/" is only a character.
function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  const field = document.getElementById("site-search");
  if (!field) return;
  event.preventDefault(); // no "/" typed into the field, and no browser quick-find
  field.focus();
  field.select();
});
