/** A message key (common:toast.*) and its values, so each reader sees it in their own language. */
export type Toast = {
  id: string;
  type: "success" | "error" | "info";
  key: string;
  values?: Record<string, string | number>;
};
export type ToastInput = Omit<Toast, "id">;
