const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/**
 * The cells as an HTML table: what Excel and Word read from the clipboard first, keeping line
 * breaks inside a cell and every value as text (a SKU like 00012 keeps its zeros).
 */
export function writeHtmlTable(rows: readonly (readonly string[])[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr>${row
          .map(
            (value) =>
              `<td style="mso-number-format:'\\@'">${escapeHtml(value).replace(/\r?\n/g, '<br style="mso-data-placement:same-cell">')}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('');
  return `<table>${body}</table>`;
}
