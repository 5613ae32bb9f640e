// Validate Kubernetes manifests against the Kubernetes API schemas.
//
// The schemas are those of the npm package kubernetes-models (validators
// generated from the official Kubernetes OpenAPI spec, github.com/tommy351/
// kubernetes-models-ts), installed offline by `npm ci` from package-lock.json.
//
// usage: node validate.mjs FILE.yaml...   exit 0 when every document is valid.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

let failures = 0;
let validated = 0;

function fail(where, msg) {
  console.error(`${where}: ${msg}`);
  failures++;
}

// "node.k8s.io/v1" + "RuntimeClass" -> "kubernetes-models/node.k8s.io/v1/RuntimeClass"
function modulePath(apiVersion, kind) {
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind))
    return null;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

for (const file of process.argv.slice(2)) {
  const docs = parseAllDocuments(readFileSync(file, "utf8"), { prettyErrors: true });
  for (const [i, doc] of docs.entries()) {
    const where = `${file}[${i}]`;
    if (doc.errors.length) {
      fail(where, `YAML: ${doc.errors[0].message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined)
      continue;
    if (typeof obj !== "object" || !obj.apiVersion || !obj.kind) {
      fail(where, "not a Kubernetes object (apiVersion and kind required)");
      continue;
    }
    const mod = modulePath(obj.apiVersion, obj.kind);
    let Model;
    try {
      Model = mod && (await import(mod))[obj.kind];
    } catch {
      Model = undefined;
    }
    if (!Model) {
      fail(where, `unknown apiVersion/kind ${obj.apiVersion} ${obj.kind}`);
      continue;
    }
    try {
      new Model(obj).validate();
      validated++;
      console.log(`${where}: ${obj.apiVersion} ${obj.kind} ${obj.metadata?.name ?? ""}: valid`);
    } catch (e) {
      fail(where, `${obj.apiVersion} ${obj.kind}: ${e.message}`);
    }
  }
}
if (!validated && !failures)
  fail("validate.mjs", "no Kubernetes object found");
process.exit(failures ? 1 : 0);
