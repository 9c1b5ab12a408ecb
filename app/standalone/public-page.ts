// The public pages' only script (no React; see app/root.tsx "standalone" and decision 026): the
// header's style once the page is scrolled past 100 px. Everything else on these pages is HTML and
// plain form posts, so they work the same without it.
const header = document.querySelector<HTMLElement>("header[data-scrolled]");
if (header) {
  const update = () => header.setAttribute("data-scrolled", String(window.scrollY > 100));
  update();
  window.addEventListener("scroll", update, { passive: true });
}
