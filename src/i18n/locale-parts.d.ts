/**
 * Types of the English locale file imported under a query (en-features.ts, en-legal.ts): the
 * same JSON as a module of its own, so only the namespaces named there land in that chunk.
 */
declare module '*/en.json?part=features' {
  type Table = { [key: string]: string | Table };
  export const profile: Table;
  export const orders: Table;
  export const trading: Table;
  export const transactions: Table;
  export const deposit: Table;
  export const withdraw: Table;
  export const journal: Table;
  export const wallet: Table;
  export const alerts: Table;
  export const shortcuts: Table;
  export const support: Table;
  export const console_support: Table;
  export const date_field: Table;
}

declare module '*/en.json?part=legal' {
  type Table = { [key: string]: string | Table };
  export const legal: Table;
}

declare module '*/en.json?part=console' {
  type Table = { [key: string]: string | Table };
  export const console: Table;
}
