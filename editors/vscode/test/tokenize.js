// Tokenizes files with the extension's TextMate grammar (vscode-textmate + vscode-oniguruma)
// and prints, per file, [line, start, end, scopes] of every token as JSON: what
// tests/test_vscode_grammar.py compares with the Pygments lexer.
// Usage: node test/tokenize.js FILE... (NODE_PATH may point at a node_modules elsewhere)
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const grammarPath = path.join(__dirname, "..", "syntaxes", "rulecraft.tmLanguage.json");

async function main(files) {
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () =>
      vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  const grammar = await registry.loadGrammar("source.rulecraft");
  const out = {};
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    let stack = vsctm.INITIAL;
    const tokens = [];
    lines.forEach((line, number) => {
      const result = grammar.tokenizeLine(line, stack);
      for (const token of result.tokens) {
        tokens.push([number, token.startIndex, Math.min(token.endIndex, line.length), token.scopes]);
      }
      stack = result.ruleStack;
    });
    out[file] = tokens;
  }
  process.stdout.write(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
