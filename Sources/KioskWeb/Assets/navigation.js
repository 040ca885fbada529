// In-page navigation while an episode plays: following a link inside Kiosk (or Back and Forward)
// fetches the next page and puts its content in place of this one's, keeping the document, and
// with it the playing media element and the live stream. Everything else navigates as always:
// with nothing playing, a link loads a new page; a reload, a form, a link to another site or one
// opened in a new tab leave the document as usual. A page that cannot be fetched or is not one
// of Kiosk's is loaded the ordinary way.

import { isListening } from "./player.js";

let used = false; // this document has replaced its content at least once
let shown = location.pathname + location.search; // the screen this document shows now
let latest = 0; // the newest navigation; an older one that lands later is dropped

const here = () => location.pathname + location.search;

function eligible(link, event) {
  if (!link || event.defaultPrevented || event.button !== 0) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.target && link.target !== "_self") return false;
  if (link.hasAttribute("download") || link.dataset.reload !== undefined) return false;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return false;
  // A link to a place in this page, or to what no screen is (feeds, OPML, the media itself).
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return false;
  return !/\.(opml|xml|json|mp3|m4a|opus|ogg|webm|mp4)$/i.test(url.pathname);
}

async function go(url, replaceState, setupPage, scrollY = 0) {
  const mine = ++latest;
  let page;
  try {
    const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("text/html")) throw new Error("not a page");
    page = new DOMParser().parseFromString(await response.text(), "text/html");
    if (!page.body?.dataset.page || page.body.dataset.page === "login") throw new Error("not a screen");
    url = response.url || url;
  } catch {
    if (mine === latest) location.assign(url);
    return;
  }
  if (mine !== latest) return;
  document.dispatchEvent(new CustomEvent("kiosk:leaving"));
  // The dock, and the playing media element in it, never leave the document.
  const dock = document.getElementById("dock");
  for (const node of Array.from(document.body.childNodes)) if (node !== dock) node.remove();
  const incoming = Array.from(page.body.childNodes).filter((node) => node.nodeName !== "SCRIPT");
  for (const node of incoming) document.body.insertBefore(document.adoptNode(node), dock);
  // The screen's own attributes (`data-page`, `data-hide-tabs`...); the dock sets its class again.
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
  for (const name of page.body.getAttributeNames()) document.body.setAttribute(name, page.body.getAttribute(name));
  document.title = page.title;
  const seq = page.documentElement.dataset.seq;
  if (seq) document.documentElement.dataset.seq = seq;
  if (replaceState === "push") {
    // Where the reader was on the screen they leave, for Back.
    history.scrollRestoration = "manual";
    history.replaceState({ kiosk: "page", y: window.scrollY }, "");
    history.pushState({ kiosk: "page", y: 0 }, "", url);
  }
  shown = here();
  used = true;
  const target = new URL(url, location.href).hash;
  const anchor = target ? document.getElementById(decodeURIComponent(target.slice(1))) : null;
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, scrollY);
  setupPage();
  // Where a keyboard or screen reader user now is: the new screen's heading, else its content.
  const focus = document.querySelector("#main h1") || document.getElementById("main");
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus({ preventScroll: true });
  }
}

export function setupSoftNavigation(setupPage) {
  document.addEventListener("click", (event) => {
    if (!isListening()) return;
    const link = event.target.closest?.("a[href]");
    if (!eligible(link, event)) return;
    event.preventDefault();
    go(link.href, "push", setupPage);
  });
  // Back and Forward between screens this document showed (and to the one it was loaded as).
  window.addEventListener("popstate", (event) => {
    if (used && here() !== shown) go(location.href, "none", setupPage, event.state?.y || 0);
  });
}
