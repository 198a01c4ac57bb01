"""render: a Markdown resume or letter as the documents an employer's form takes.

The parts, each one idea:

- `document`    the small document model: name, contact line, headings, paragraphs,
                lists, spans of text with emphasis and links (plain, JSON-safe data)
- `markdown`    pure: Markdown (markdown-it-py, raw HTML off) → a `Document`
- `themes`      which Typst template a theme name or path means; the built-in ones
                live in `themes/` as `.typ` files a user can copy and change
- `pdf`         a `Document` → PDF bytes through the `typst` package, in process;
                the text reaches Typst as JSON data, never as markup
- `word`        a `Document` → DOCX bytes through python-docx
- `check`       pure: reading a PDF's text layer back (pypdf) and finding every
                heading, list item, paragraph and contact detail in it, in order
- `jsonresume`  pure: a JSON Resume 1.0 document → resume Markdown
- `files`       the whole of rendering one file: read, render, check, write

No model, no browser and no network: everything here runs offline, and the same
input, theme and paper give the same bytes.
"""
