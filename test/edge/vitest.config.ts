import { definePackageTestConfig } from "../../vitest.shared.js";

export default definePackageTestConfig("edge");
