// The rule form's live preview: as the query (or where the rule looks) changes, and 500 ms after
// the last keystroke, the server says how many of the user's entries the rule matches (under the
// field) and lists the newest (under the form); a query that does not read is said under the field. Without script, the form's
// Preview button does the same as a round trip.

const PREVIEW_DELAY_MS = 500;

/** Wires the rule form, when the page has one; `localize` re-renders dates in a fragment. */
export function setupRuleForm(localize) {
  const form = document.querySelector("#rule-form");
  if (!form) return;
  const input = form.querySelector("#rule-query");
  const scope = form.querySelector("#rule-scope");
  const error = document.querySelector("#rule-query-error");
  const preview = document.querySelector("#rule-preview");
  const count = () => document.querySelector("#rule-count");
  let timer = null;
  let controller = null;
  let shown = null; // the query and scope the preview shows

  const refresh = async () => {
    const key = `${input.value}\n${scope.value}`;
    if (key === shown) return;
    if (controller) controller.abort();
    controller = new AbortController();
    // encodeURIComponent, not URLSearchParams: a space must arrive as %20, never "+".
    const params = `query=${encodeURIComponent(input.value)}&scope=${encodeURIComponent(scope.value)}`;
    preview.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(`/reader/rules/preview?${params}`, {
        headers: { Accept: "application/json" },
        signal: controller.signal,
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      shown = key;
      // Rendered and escaped by the server.
      count().outerHTML = data.count;
      preview.innerHTML = data.list;
      error.textContent = data.error || "";
      error.hidden = !data.error;
      input.setAttribute("aria-invalid", data.error ? "true" : "false");
      localize(preview);
    } catch (failure) {
      if (failure.name !== "AbortError") {
        error.textContent = "The preview could not be loaded; saving still works.";
        error.hidden = false;
      }
    } finally {
      preview.removeAttribute("aria-busy");
    }
  };

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, PREVIEW_DELAY_MS);
  };
  input.addEventListener("input", later);
  scope.addEventListener("change", later);
  shown = `${input.value}\n${scope.value}`; // what the server drew with the page
}
