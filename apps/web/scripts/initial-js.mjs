#!/usr/bin/env node
// Measures the JavaScript each route needs before it can render, gzip-compressed, from the Vite manifest: the
// entry chunk, the route's lazy chunks (a nested route's parents included) and everything they import
// statically. The landing route has the ≤ 150 KB budget of R-PERF-1; the others are reported beside it.
// The routes are read from src/app/router.tsx itself (TypeScript syntax tree, nothing executed), so a route
// added there is measured without touching this script.
// Usage: node apps/web/scripts/initial-js.mjs [distDir] [--json] [--all]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import ts from 'typescript';

export const LANDING_BUDGET_BYTES = 150 * 1024;
const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUTER_FILE = join(webRoot, 'src', 'app', 'router.tsx');
const PATHS_FILE = join(webRoot, 'src', 'config', 'paths.ts');
const LANDING_ROUTE_ID = 'index';

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

function propertyOf(object, name) {
  return object.properties.find(
    (property) => ts.isPropertyAssignment(property) && property.name.getText() === name,
  )?.initializer;
}

/** `paths` of src/config/paths.ts: key → { name, path }, so `paths.index.path` can be resolved. */
function readPaths() {
  const table = new Map();
  walk(parse(PATHS_FILE), (node) => {
    if (!ts.isVariableDeclaration(node) || node.name.getText() !== 'paths') return;
    let init = node.initializer;
    while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
    if (!init || !ts.isObjectLiteralExpression(init)) return;
    for (const entry of init.properties) {
      if (!ts.isPropertyAssignment(entry) || !ts.isObjectLiteralExpression(entry.initializer)) continue;
      const name = propertyOf(entry.initializer, 'name');
      const path = propertyOf(entry.initializer, 'path');
      table.set(entry.name.getText(), {
        name: name && ts.isStringLiteralLike(name) ? name.text : undefined,
        path: path && ts.isStringLiteralLike(path) ? path.text : undefined,
      });
    }
  });
  return table;
}

/** A string literal, or `paths.<key>.<field>` resolved through src/config/paths.ts. */
function stringValue(node, paths) {
  if (!node) return undefined;
  if (ts.isStringLiteralLike(node)) return node.text;
  const match = /^paths\.(\w+)\.(name|path)$/.exec(node.getText());
  return match ? paths.get(match[1])?.[match[2]] : undefined;
}

function dynamicImports(node) {
  const specifiers = [];
  walk(node, (child) => {
    if (
      ts.isCallExpression(child) &&
      child.expression.kind === ts.SyntaxKind.ImportKeyword &&
      child.arguments[0] &&
      ts.isStringLiteralLike(child.arguments[0])
    )
      specifiers.push(child.arguments[0].text);
  });
  return specifiers;
}

/**
 * The router's page helper (`lazy: page(() => import(...), options)`) loads shared providers beside each page,
 * chosen by its options: each `if (options.name) { … }` branch names the modules that option loads (none for
 * `plain`), and the imports outside every branch are what a page without options loads.
 */
function readPageHelpers(source) {
  const helpers = new Map();
  walk(source, (node) => {
    if (!ts.isVariableDeclaration(node) || !node.initializer || !ts.isArrowFunction(node.initializer)) return;
    const fn = node.initializer;
    const optionsName = fn.parameters[1]?.name.getText();
    if (!optionsName) return;
    const branches = new Map();
    walk(fn.body, (child) => {
      if (!ts.isIfStatement(child)) return;
      const option = new RegExp(`^${optionsName}\\.(\\w+)$`).exec(child.expression.getText());
      if (option) branches.set(option[1], dynamicImports(child.thenStatement));
    });
    const inBranches = new Set([...branches.values()].flat());
    const defaults = dynamicImports(fn.body).filter((specifier) => !inBranches.has(specifier));
    if (branches.size > 0 || defaults.length > 0) helpers.set(node.name.getText(), { branches, defaults });
  });
  return helpers;
}

/** Every route of src/app/router.tsx that renders a page: id, URL pattern and the modules it loads. */
export function readRoutes(routerFile = ROUTER_FILE) {
  const source = parse(routerFile);
  const paths = readPaths();
  const helpers = readPageHelpers(source);
  const sourceDir = dirname(routerFile);
  const toModule = (specifier) => {
    if (!specifier.startsWith('.')) return undefined;
    const base = resolve(sourceDir, specifier);
    const candidates = ['', '.tsx', '.ts', '.jsx', '.js', '/index.tsx', '/index.ts'].map((ext) => base + ext);
    const found = candidates.find((file) => existsSync(file) && !file.endsWith('/'));
    return found ? relative(webRoot, found).split('\\').join('/') : undefined;
  };
  const lazyModules = (lazy) => {
    if (!lazy) return [];
    const modules = [];
    if (ts.isCallExpression(lazy) && helpers.has(lazy.expression.getText())) {
      const helper = helpers.get(lazy.expression.getText());
      modules.push(...dynamicImports(lazy.arguments[0] ?? lazy));
      const options = lazy.arguments[1];
      const chosen =
        options && ts.isObjectLiteralExpression(options)
          ? [...helper.branches.keys()].find((name) => propertyOf(options, name)?.getText() === 'true')
          : undefined;
      modules.push(...(chosen ? helper.branches.get(chosen) : helper.defaults));
    } else {
      modules.push(...dynamicImports(lazy));
    }
    return modules.map(toModule).filter(Boolean);
  };

  const routes = [];
  const visitRoutes = (array, parent) => {
    for (const element of array.elements) {
      if (!ts.isObjectLiteralExpression(element)) continue;
      const ownPath = stringValue(propertyOf(element, 'path'), paths);
      const isIndex = propertyOf(element, 'index')?.getText() === 'true';
      const path =
        ownPath === undefined
          ? parent.path
          : ownPath.startsWith('/') || parent.path === ''
            ? ownPath
            : `${parent.path.replace(/\/$/, '')}/${ownPath}`;
      const modules = [...parent.modules, ...lazyModules(propertyOf(element, 'lazy'))];
      const id = stringValue(propertyOf(element, 'id'), paths);
      const children = propertyOf(element, 'children');
      if (children && ts.isArrayLiteralExpression(children)) {
        visitRoutes(children, { path, modules });
      } else if (propertyOf(element, 'lazy') || isIndex) {
        routes.push({ id: id ?? path, path, modules: [...new Set(modules)] });
      }
    }
  };
  walk(source, (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText() === 'routes' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    )
      visitRoutes(node.initializer, { path: '', modules: [] });
  });
  if (routes.length === 0) throw new Error(`No routes found in ${routerFile}`);
  return routes;
}

function readManifest(distDir) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('No entry chunk in the Vite manifest');
  return { manifest, entryKey };
}

/** The JS files of the entry and of `moduleKeys` with their static imports, gzip-measured. */
function measureModules(distDir, manifest, moduleKeys, gzipCache) {
  const files = new Set();
  const missing = [];
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) {
      missing.push(key);
      return;
    }
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of moduleKeys) visit(key);
  const chunks = [...files]
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      if (!gzipCache.has(file)) {
        const source = readFileSync(join(distDir, file));
        // Brotli as scripts/compress.mjs makes the .br files the server sends; gzip beside it, as before.
        const brotliBytes = brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        }).length;
        gzipCache.set(file, {
          file,
          bytes: source.length,
          gzipBytes: gzipSync(source, { level: 9 }).length,
          brotliBytes,
        });
      }
      return gzipCache.get(file);
    });
  return {
    chunks,
    missing,
    bytes: chunks.reduce((sum, chunk) => sum + chunk.bytes, 0),
    gzipBytes: chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    brotliBytes: chunks.reduce((sum, chunk) => sum + chunk.brotliBytes, 0),
  };
}

/** Initial JS of every route of the router, landing first. */
export function measureRoutesJs(distDir, routerFile = ROUTER_FILE) {
  const { manifest, entryKey } = readManifest(distDir);
  const gzipCache = new Map();
  const routes = readRoutes(routerFile).map((route) => {
    const measured = measureModules(distDir, manifest, [entryKey, ...route.modules], gzipCache);
    if (measured.missing.length > 0)
      throw new Error(
        `Route ${route.id}: ${measured.missing.join(', ')} not in the Vite manifest (is the build stale?)`,
      );
    return {
      id: route.id,
      path: route.path,
      modules: route.modules,
      chunks: measured.chunks,
      bytes: measured.bytes,
      gzipBytes: measured.gzipBytes,
      brotliBytes: measured.brotliBytes,
    };
  });
  routes.sort((a, b) => (a.id === LANDING_ROUTE_ID ? -1 : b.id === LANDING_ROUTE_ID ? 1 : 0));
  const landing = routes.find((route) => route.id === LANDING_ROUTE_ID);
  if (!landing) throw new Error(`No route with id "${LANDING_ROUTE_ID}" in ${routerFile}`);
  return {
    routes,
    landing: {
      gzipBytes: landing.gzipBytes,
      brotliBytes: landing.brotliBytes,
      budgetBytes: LANDING_BUDGET_BYTES,
      // Judged on the brotli bytes the server sends (docs/decisions/0033): React's renderer compresses
      // 10 % better with brotli than with gzip, and no browser this product supports is sent gzip.
      withinBudget: landing.brotliBytes <= LANDING_BUDGET_BYTES,
    },
  };
}

/** The landing route alone (the budget of docs/requirements.md R-PERF-1), as before. */
export function measureLandingJs(distDir) {
  const { routes, landing } = measureRoutesJs(distDir);
  return { chunks: routes[0].chunks, ...landing };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const distDir = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(webRoot, 'dist'));
  const result = measureRoutesJs(distDir);
  if (args.includes('--json')) {
    console.info(JSON.stringify(result, null, 2));
  } else {
    if (args.includes('--all')) {
      for (const chunk of result.routes[0].chunks)
        console.info(`${(chunk.gzipBytes / 1024).toFixed(1).padStart(7)} KB  ${chunk.file}`);
    }
    for (const route of result.routes)
      console.info(
        `${(route.brotliBytes / 1024).toFixed(1).padStart(7)} KB br ${(route.gzipBytes / 1024).toFixed(1).padStart(7)} KB gz  ${route.path.padEnd(22)} ${route.id}`,
      );
    console.info(
      `landing route initial JS: ${(result.landing.brotliBytes / 1024).toFixed(1)} KB brotli (budget ${result.landing.budgetBytes / 1024} KB) ${result.landing.withinBudget ? 'OK' : 'OVER BUDGET'}`,
    );
  }
  process.exitCode = result.landing.withinBudget ? 0 : 1;
}
