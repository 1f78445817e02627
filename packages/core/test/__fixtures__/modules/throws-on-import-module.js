// Fails while being imported, like a module with a broken top-level statement.
throw new Error("fixture module exploded on import");
