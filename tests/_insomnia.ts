/**
 * Insomnia v4 exports as tests write them (the importer's unit tests and the import e2e tests):
 * a workspace `wrk_1` and the resources below it, each with its id, type and parent first.
 * @module
 */

/** One resource of an Insomnia export: its fields after `_id`, `_type` and `parentId`. */
export type InsomniaFields = Record<string, unknown>;

/**
 * @param workspace the workspace's name (its id is `wrk_1`)
 * @param resources the environments, folders and requests below it
 * @returns an Insomnia v4 export
 */
export function insomniaExport(
  workspace: string,
  resources: InsomniaFields[],
): Record<string, unknown> {
  return {
    _type: "export",
    __export_format: 4,
    resources: [{ _id: "wrk_1", _type: "workspace", name: workspace }, ...resources],
  };
}

/**
 * @param type `environment`, `request_group` or `request`
 * @param id the resource's `_id`
 * @param parentId the `_id` of the workspace, folder or environment it belongs to
 * @param fields its other fields (name, data, method, url, headers, body…)
 * @returns the resource
 */
export function insomnia(
  type: string,
  id: string,
  parentId: string,
  fields: InsomniaFields,
): InsomniaFields {
  return { _id: id, _type: type, parentId, ...fields };
}
