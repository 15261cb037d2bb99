export { Harness, sharedRegistry, unwrap, boxRecipe, DEFAULT_AREA, PROJECT, OWNER, type HarnessOptions } from "./Harness.js";
export { runModelSuite, commandArbitrary, type ModelSuiteOptions } from "./model/ModelSuite.js";
export { checkAdapterConformance, type AdapterDriver } from "./conformance/AdapterConformance.js";
