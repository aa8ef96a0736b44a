import { useState } from 'preact/hooks';

/** Copies `text`; says so for a moment (and to screen readers). */
export function CopyButton({
  text,
  label = 'Copy',
  testId,
}: {
  text: string;
  label?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard needs a secure context; the text is selectable anyway.
    }
  };
  return (
    <button type="button" onClick={copy} data-testid={testId}>
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </button>
  );
}
