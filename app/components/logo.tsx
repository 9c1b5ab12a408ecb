import { Link } from "react-router";
import { useRootData } from "~/utils/root-data";

export function Logo({ to = "/" }: { to?: string }) {
  const appName = useRootData()?.appName ?? "Heirloom";
  return (
    <Link to={to} className="flex min-h-11 items-center gap-2 text-xl font-bold text-ink">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" className="text-primary">
        <circle cx="16" cy="16" r="15" fill="currentColor" />
        <path d="M11 10v12M16 7v18M21 10v12" stroke="white" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span>{appName}</span>
    </Link>
  );
}
