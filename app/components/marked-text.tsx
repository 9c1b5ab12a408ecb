/**
 * Text with the search's matches marked: the server puts the matching words between two control
 * characters (which no saved words contain), and they become <mark>s here, every part escaped by React.
 */
// The two marks are control characters on purpose: nothing typed or saved contains them.
// eslint-disable-next-line no-control-regex
const MARKED = /(\u0001[^\u0001\u0002]*\u0002)/u;
// eslint-disable-next-line no-control-regex
const STRAY_MARK = /[\u0001\u0002]/gu;

export function MarkedText({ text }: { text: string }) {
  const parts = text.split(MARKED);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("\u0001") ? (
          <mark key={i} className="found">
            {part.slice(1, -1)}
          </mark>
        ) : (
          part.replace(STRAY_MARK, "")
        ),
      )}
    </>
  );
}
