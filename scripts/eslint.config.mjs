// ESLint's settings for the page's JavaScript (src/cardtable/web/static: plain ES modules in the
// browser, no build step), run by scripts/lint-js.sh. Only ESLint's own rules, so the file needs
// no package of its own: eslint:recommended's checks that find real mistakes, and a few more
// (a name that shadows another, == where === is meant, var).
const browser = Object.fromEntries([
  "window", "document", "navigator", "location", "history", "localStorage", "sessionStorage", "console", "fetch", "WebSocket",
  "setTimeout", "clearTimeout", "setInterval", "clearInterval", "requestAnimationFrame", "crypto", "TextEncoder", "performance",
  "URLSearchParams", "CSS", "Node", "Element", "NodeFilter", "confirm", "getComputedStyle",
].map((name) => [name, "readonly"]));

export default [
  {
    files: ["src/cardtable/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: browser },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // eslint:recommended, the rules that apply to this code
      "constructor-super": "error", "for-direction": "error", "getter-return": "error", "no-async-promise-executor": "error",
      "no-case-declarations": "error", "no-class-assign": "error", "no-compare-neg-zero": "error", "no-cond-assign": "error",
      "no-const-assign": "error", "no-constant-condition": "error", "no-control-regex": "error", "no-debugger": "error",
      "no-delete-var": "error", "no-dupe-args": "error", "no-dupe-class-members": "error", "no-dupe-else-if": "error",
      "no-dupe-keys": "error", "no-duplicate-case": "error", "no-empty": ["error", { allowEmptyCatch: true }],
      "no-empty-character-class": "error", "no-empty-pattern": "error", "no-ex-assign": "error", "no-extra-boolean-cast": "error",
      "no-fallthrough": "error", "no-func-assign": "error", "no-global-assign": "error", "no-import-assign": "error",
      "no-invalid-regexp": "error", "no-irregular-whitespace": "error", "no-loss-of-precision": "error",
      "no-misleading-character-class": "error", "no-new-native-nonconstructor": "error", "no-obj-calls": "error",
      "no-prototype-builtins": "error", "no-redeclare": "error", "no-regex-spaces": "error", "no-self-assign": "error",
      "no-setter-return": "error", "no-shadow-restricted-names": "error", "no-sparse-arrays": "error", "no-this-before-super": "error",
      "no-undef": "error", "no-unexpected-multiline": "error", "no-unreachable": "error", "no-unsafe-finally": "error",
      "no-unsafe-negation": "error", "no-unsafe-optional-chaining": "error", "no-unused-labels": "error",
      "no-unused-private-class-members": "error", "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-useless-backreference": "error", "no-useless-catch": "error", "no-useless-escape": "error", "no-with": "error",
      "require-yield": "error", "use-isnan": "error", "valid-typeof": "error",
      // and a few more
      "no-shadow": ["error", { builtinGlobals: false }], "eqeqeq": ["error", "always"], "no-var": "error",
      "prefer-const": "error", "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
    },
  },
];
