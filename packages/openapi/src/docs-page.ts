/**
 * `GET /docs`: a reference page of the store's `/openapi.json`, rendered by Swagger UI in the
 * browser. Every URL in it is relative (`docs/...`, `openapi.json`), so the page works wherever
 * the store is mounted: at `/api/docs` it loads `/api/docs/swagger-ui-bundle.js` and
 * `/api/openapi.json`. No inline script, so a host's `script-src 'self'` policy lets it run.
 */
import { rendererVersion } from './docs-assets';

/** `docs/docs.js`: starts Swagger UI on the element `#docs`, with the document its `data-url` names. */
export const DOCS_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('docs');
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute('data-url'), window.location.href).href,
    dom_id: '#docs',
    deepLinking: true,
    validatorUrl: null
  });
});
`;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c] as string);

/** The page, titled `title` (the document's `info.title`). */
export function docsPage(title: string): string {
  const v = `?v=${encodeURIComponent(rendererVersion())}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/swagger-ui.css${v}">
</head>
<body>
<div id="docs" data-url="openapi.json"></div>
<script src="docs/swagger-ui-bundle.js${v}"></script>
<script src="docs/docs.js"></script>
</body>
</html>
`;
}
