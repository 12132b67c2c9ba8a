// A raw file's page: ?lines=272-304 highlights the lines a run came from and brings them into view.
document.addEventListener("DOMContentLoaded", () => {
  const wanted = new URLSearchParams(location.search).get("lines");
  const match = wanted && wanted.match(/^(\d+)-(\d+)$/);
  if (!match) return;
  const [first, last] = [Number(match[1]), Number(match[2])];
  for (let line = first; line <= last; line += 1) {
    const node = document.getElementById(`L${line}`);
    if (node) node.classList.add("raw__line--run");
  }
  const start = document.getElementById(`L${first}`);
  if (start) start.scrollIntoView({ block: "start" });
});
