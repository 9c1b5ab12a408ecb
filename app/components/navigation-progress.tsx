import { useNavigation } from "react-router";

/**
 * A slim bar across the top while a page loads or a form submits. Purely visual (hidden from
 * assistive technology): it sits outside every landmark, and the page that arrives says what changed.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  return (
    <div
      aria-hidden="true"
      data-state={navigation.state}
      className="nav-progress pointer-events-none fixed inset-x-0 top-0 z-50 h-1"
    />
  );
}
