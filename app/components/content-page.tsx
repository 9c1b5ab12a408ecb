import type { ReactNode } from "react";

export type ContentSection = { heading: string; paragraphs?: string[]; items?: string[] };

/** Long-form pages (legal, about, disclosures): a title, an intro and headed sections. */
export function ContentPage({
  title,
  intro,
  sections,
  children,
}: {
  title: string;
  intro?: string;
  sections: ContentSection[];
  children?: ReactNode;
}) {
  return (
    <article className="prose-page mx-auto max-w-3xl px-4 py-12">
      <h1 className="mb-4 text-3xl font-bold">{title}</h1>
      {intro ? <p className="mb-8 text-lg text-muted">{intro}</p> : null}
      {sections.map((section) => (
        <section key={section.heading} className="mb-8">
          <h2 className="mb-3 text-xl font-semibold">{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph} className="mb-3 leading-relaxed">
              {paragraph}
            </p>
          ))}
          {section.items?.length ? (
            <ul className="mb-3 list-disc space-y-1 ps-6">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
      {children}
    </article>
  );
}
