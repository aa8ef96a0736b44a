/**
 * The one way a route joins the app: its file (`<name>.<method>.ts` under native/ or
 * operations/) default-exports `defineRoute((app, services) => app.<method>(...))`, and
 * routes.ts lists it. The route takes its parts from `services`; it builds none.
 */
import type { AppInstance } from './app-instance.js';
import type { ApiServices } from './services.js';

export interface Route {
  register(app: AppInstance, services: ApiServices): void;
}

export function defineRoute(register: Route['register']): Route {
  return { register };
}
