// Reading the commands' JSON Schemas (pydantic's output): references, nullable fields and
// the shapes the forms draw differently (positions, choices).

/** Follow "$ref": "#/$defs/Name" into the root's $defs; keep the referring node's own
 * title/description/default, which describe the field rather than the type. */
export function resolve(schema, root) {
  let node = schema || {};
  const own = {};
  for (const key of ["title", "description", "default"]) if (key in node) own[key] = node[key];
  let guard = 0;
  while (node.$ref && guard++ < 20) {
    const name = node.$ref.split("/").pop();
    node = (root.$defs || {})[name] || {};
  }
  return { ...node, ...own };
}

/** A field that may be null (pydantic writes `X | None` as anyOf [X, {type: null}]).
 * Returns the non-null schema, resolved, and whether null is allowed. */
export function unwrap(schema, root) {
  const node = resolve(schema, root);
  if (Array.isArray(node.anyOf)) {
    const others = node.anyOf.filter((branch) => branch.type !== "null");
    if (others.length === 1) {
      const inner = resolve(others[0], root);
      return {
        schema: {
          ...inner,
          title: node.title ?? inner.title,
          description: node.description ?? inner.description,
          default: node.default,
        },
        nullable: others.length < node.anyOf.length,
      };
    }
  }
  return { schema: node, nullable: node.type === "null" };
}

/** An [x, y] position in inches: a 2-tuple of numbers. */
export function isPosition(schema, root) {
  const node = resolve(schema, root);
  const items = node.prefixItems;
  return (
    node.type === "array" &&
    Array.isArray(items) &&
    items.length === 2 &&
    items.every((item) => ["number", "integer"].includes(resolve(item, root).type))
  );
}

/** The fields of an object schema, in declared order, with whether each is required. */
export function properties(schema) {
  const required = new Set(schema.required || []);
  return Object.entries(schema.properties || {}).map(([name, field]) => ({
    name,
    field,
    required: required.has(name),
  }));
}

/** Does the command take any input beyond its type? */
export function hasFields(schema) {
  return properties(schema).some(({ field }) => field.const === undefined);
}

/** Does the command need any input given (a field with no default)? */
export function hasRequired(schema) {
  return properties(schema).some(({ field, required }) => required && field.const === undefined);
}
