/**
 * The app's one HTML page.
 * @module
 */

/** @returns the HTML shell that loads the bundle */
export function indexHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dial</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
}
