import { definePackageTestConfig } from "../../vitest.shared.js";

export default definePackageTestConfig("example-opentelemetry-console");
