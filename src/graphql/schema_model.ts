/**
 * The schema tree of the GraphQL tab: root operation types → fields → arguments and
 * sub-fields, built lazily one level at a time (the tree of a real schema is infinite:
 * `Repository.owner.repositories.nodes.owner…`), so it is cycle-safe by construction.
 * Pure TypeScript over graphql-js; no DOM.
 * @module
 */
import {
  astFromValue,
  buildClientSchema,
  getNamedType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type IntrospectionQuery,
  isAbstractType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isRequiredArgument,
  isRequiredInputField,
  print,
} from "graphql";
import type {
  GraphQLArgument,
  GraphQLField,
  GraphQLInputField,
  GraphQLNamedType,
  GraphQLSchema,
} from "./graphql_types.ts";
import { argumentPath, parsePath } from "./paths.ts";

/** What a tree node stands for. */
export type SchemaNodeKind = "root" | "field" | "on" | "argument" | "inputField";

/** One node of the schema tree, as the UI shows it. */
export interface SchemaNode {
  /** The node's path, e.g. `Query.repository.issues`; see `paths.ts`. */
  path: string;
  /** What the node is. */
  kind: SchemaNodeKind;
  /** The field, argument or type name. */
  name: string;
  /** The type as written in SDL, e.g. `[Repository!]!`; the type name for roots and `on`. */
  typeLabel: string;
  /** The unwrapped type name, e.g. `Repository`. */
  typeName: string;
  /** The description, if the schema has one. */
  description?: string;
  /** The deprecation reason, when deprecated. */
  deprecationReason?: string;
  /** Whether the node has children to expand to. */
  expandable: boolean;
  /** For arguments and input fields: whether a value must be given. */
  required?: boolean;
  /** For arguments and input fields: the default value as GraphQL text, e.g. `10`. */
  defaultValue?: string;
}

/** What a path resolves to. */
export type ResolvedPath =
  | { kind: "root"; type: GraphQLNamedType }
  | { kind: "field"; field: GraphQLField; parent: GraphQLNamedType }
  | { kind: "on"; type: GraphQLNamedType; parent: GraphQLNamedType }
  | { kind: "argument"; argument: GraphQLArgument; field: GraphQLField }
  | { kind: "inputField"; inputField: GraphQLInputField; parent: GraphQLNamedType };

/**
 * A schema with the tree operations the GraphQL tab needs. Resolved paths are memoised, so
 * repeated lookups while the user clicks around are cheap.
 *
 * @example
 * ```ts
 * const model = new SchemaModel(schema);
 * model.roots().map((n) => n.path); // ["Query", "Mutation"]
 * model.children("Query.repository").map((n) => n.path);
 * // ["Query.repository(followRenames)", "Query.repository(name)", …, "Query.repository.allowUpdateBranch", …]
 * ```
 */
export class SchemaModel {
  /** The graphql-js schema. */
  readonly schema: GraphQLSchema;
  readonly #resolved = new Map<string, ResolvedPath | undefined>();

  /**
   * Wraps a graphql-js schema.
   *
   * @param schema a graphql-js schema
   */
  constructor(schema: GraphQLSchema) {
    this.schema = schema;
  }

  /**
   * Builds a model from an introspection result.
   *
   * @param introspection the `data` of an introspection response (`{ __schema: … }`)
   * @returns a model of the client schema it describes
   * @throws {Error} when the value is not an introspection result
   */
  static fromIntrospection(introspection: unknown): SchemaModel {
    return new SchemaModel(schemaFromIntrospection(introspection));
  }

  /**
   * The root operation types, as the top nodes of the tree.
   *
   * @returns the root operation types present, in the order query, mutation, subscription
   */
  roots(): SchemaNode[] {
    const roots = [
      this.schema.getQueryType(),
      this.schema.getMutationType(),
      this.schema.getSubscriptionType(),
    ];
    return roots.filter((t) => t !== null && t !== undefined).map((type) => ({
      path: type.name,
      kind: "root",
      name: type.name,
      typeLabel: type.name,
      typeName: type.name,
      ...describe(type),
      expandable: true,
    }));
  }

  /**
   * The operation a root type serves.
   *
   * @param rootType a root type name
   * @returns which operation the root type serves, or undefined when it is not a root
   */
  operationOf(rootType: string): "query" | "mutation" | "subscription" | undefined {
    if (this.schema.getQueryType()?.name === rootType) return "query";
    if (this.schema.getMutationType()?.name === rootType) return "mutation";
    if (this.schema.getSubscriptionType()?.name === rootType) return "subscription";
    return undefined;
  }

  /**
   * The root type that serves an operation.
   *
   * @param operation an operation type
   * @returns the name of its root type, if the schema has one
   */
  rootOf(operation: "query" | "mutation" | "subscription"): string | undefined {
    const type = operation === "query"
      ? this.schema.getQueryType()
      : operation === "mutation"
      ? this.schema.getMutationType()
      : this.schema.getSubscriptionType();
    return type?.name;
  }

  /**
   * Lists one level of the tree. A field's children are its arguments, then the fields of
   * its type, then `on T` nodes for the possible types of an interface or union; an
   * argument's children are the fields of its input object type.
   *
   * @param path the parent's path
   * @returns the children, or `[]` for leaves and unknown paths
   */
  children(path: string): SchemaNode[] {
    const node = this.resolve(path);
    if (!node) return [];
    switch (node.kind) {
      case "root":
      case "on":
        return this.#typeChildren(path, node.type);
      case "field": {
        const args = node.field.args.map((a) => argumentNode(argumentPath(path, a.name), a));
        return [...args, ...this.#typeChildren(path, getNamedType(node.field.type))];
      }
      case "argument":
        return this.#inputChildren(path, getNamedType(node.argument.type));
      case "inputField":
        return this.#inputChildren(path, getNamedType(node.inputField.type));
    }
  }

  /**
   * Looks up the node at a path.
   *
   * @param path a path
   * @returns the node at the path, or undefined when the path does not exist
   */
  node(path: string): SchemaNode | undefined {
    const node = this.resolve(path);
    if (!node) return undefined;
    switch (node.kind) {
      case "root":
        return this.roots().find((r) => r.path === path);
      case "on":
        return onNode(path, node.type);
      case "field":
        return fieldNode(path, node.field);
      case "argument":
        return argumentNode(path, node.argument);
      case "inputField":
        return inputFieldNode(path, node.inputField);
    }
  }

  /**
   * Resolves a path against the schema.
   *
   * @param path a path
   * @returns what it names, or undefined when it does not exist
   */
  resolve(path: string): ResolvedPath | undefined {
    if (this.#resolved.has(path)) return this.#resolved.get(path);
    const result = this.#resolve(path);
    this.#resolved.set(path, result);
    return result;
  }

  /**
   * The named output type a path's field returns.
   *
   * @param path a field, `on`, or root path
   * @returns the named output type at the path (the type whose fields the path's children
   * select), or undefined for other paths
   */
  outputTypeAt(path: string): GraphQLNamedType | undefined {
    const node = this.resolve(path);
    if (!node) return undefined;
    if (node.kind === "root" || node.kind === "on") return node.type;
    if (node.kind === "field") return getNamedType(node.field.type);
    return undefined;
  }

  #resolve(path: string): ResolvedPath | undefined {
    const segments = parsePath(path);
    if (!segments) return undefined;
    const [root, ...rest] = segments;
    if (root?.kind !== "root" || this.operationOf(root.type) === undefined) return undefined;
    let current: ResolvedPath = { kind: "root", type: this.schema.getType(root.type)! };
    for (const segment of rest) {
      const type: GraphQLNamedType = currentType(current);
      switch (segment.kind) {
        case "field": {
          if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
          const field = type.getFields()[segment.name];
          if (!field) return undefined;
          current = { kind: "field", field, parent: type };
          break;
        }
        case "on": {
          const target = this.schema.getType(segment.type);
          if (!target || !isAbstractType(type) || !isObjectType(target)) return undefined;
          if (!this.schema.isSubType(type, target)) return undefined;
          current = { kind: "on", type: target, parent: type };
          break;
        }
        case "argument": {
          if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
          const field = type.getFields()[segment.field];
          const argument = field?.args.find((a) => a.name === segment.name);
          if (!field || !argument) return undefined;
          current = { kind: "argument", argument, field };
          break;
        }
        case "inputField": {
          if (!isInputObjectType(type)) return undefined;
          const inputField = type.getFields()[segment.name];
          if (!inputField) return undefined;
          current = { kind: "inputField", inputField, parent: type };
          break;
        }
        case "root":
          return undefined;
      }
    }
    return current;
  }

  #typeChildren(path: string, type: GraphQLNamedType): SchemaNode[] {
    const nodes: SchemaNode[] = [];
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        nodes.push(fieldNode(`${path}.${field.name}`, field));
      }
    }
    if (isAbstractType(type)) {
      for (const t of this.schema.getPossibleTypes(type)) {
        nodes.push(onNode(`${path}.on ${t.name}`, t));
      }
    }
    return nodes;
  }

  #inputChildren(path: string, type: GraphQLNamedType): SchemaNode[] {
    if (!isInputObjectType(type)) return [];
    return Object.values(type.getFields()).map((f) => inputFieldNode(`${path}.${f.name}`, f));
  }
}

/**
 * Builds a client schema from introspection data, checking its shape first.
 *
 * @param introspection `{ __schema: … }`, the `data` of an introspection response
 * @returns the schema
 * @throws {Error} when the value is not an introspection result
 */
export function schemaFromIntrospection(introspection: unknown): GraphQLSchema {
  if (
    typeof introspection !== "object" || introspection === null ||
    !("__schema" in introspection) || typeof introspection.__schema !== "object" ||
    introspection.__schema === null || !("types" in introspection.__schema) ||
    !Array.isArray(introspection.__schema.types)
  ) {
    throw new Error("Not an introspection result: expected an object with __schema.types");
  }
  // buildClientSchema checks every type reference itself and throws a precise error.
  return buildClientSchema(introspection as IntrospectionQuery, { assumeValid: false });
}

function currentType(node: ResolvedPath): GraphQLNamedType {
  switch (node.kind) {
    case "root":
    case "on":
      return node.type;
    case "field":
      return getNamedType(node.field.type);
    case "argument":
      return getNamedType(node.argument.type);
    case "inputField":
      return getNamedType(node.inputField.type);
  }
}

function describe(
  thing: { description?: string | null | undefined; deprecationReason?: string | null | undefined },
): { description?: string; deprecationReason?: string } {
  return {
    ...(thing.description ? { description: thing.description } : {}),
    ...(thing.deprecationReason ? { deprecationReason: thing.deprecationReason } : {}),
  };
}

function fieldNode(path: string, field: GraphQLField): SchemaNode {
  const named = getNamedType(field.type);
  return {
    path,
    kind: "field",
    name: field.name,
    typeLabel: String(field.type as GraphQLOutputType),
    typeName: named.name,
    ...describe(field),
    expandable: isCompositeType(named) || field.args.length > 0,
  };
}

function onNode(path: string, type: GraphQLNamedType): SchemaNode {
  return {
    path,
    kind: "on",
    name: type.name,
    typeLabel: type.name,
    typeName: type.name,
    ...describe(type),
    expandable: true,
  };
}

function argumentNode(path: string, argument: GraphQLArgument): SchemaNode {
  return {
    path,
    kind: "argument",
    name: argument.name,
    typeLabel: String(argument.type as GraphQLInputType),
    typeName: getNamedType(argument.type).name,
    ...describe(argument),
    expandable: isInputObjectType(getNamedType(argument.type)),
    required: isRequiredArgument(argument),
    ...defaultText(argument),
  };
}

function inputFieldNode(path: string, field: GraphQLInputField): SchemaNode {
  return {
    path,
    kind: "inputField",
    name: field.name,
    typeLabel: String(field.type),
    typeName: getNamedType(field.type).name,
    ...describe(field),
    expandable: isInputObjectType(getNamedType(field.type)),
    required: isRequiredInputField(field),
    ...defaultText(field),
  };
}

/** The default value of an argument or input field as GraphQL text, when it has one. */
function defaultText(input: GraphQLArgument | GraphQLInputField): { defaultValue?: string } {
  if (input.defaultValue === undefined) return {};
  const ast = astFromValue(input.defaultValue, input.type);
  return ast ? { defaultValue: print(ast) } : {};
}
