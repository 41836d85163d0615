// Starts `rulecraft lsp` (the setting rulecraft.command) for .rules files and the card sets,
// decks, maps and scenarios next to them.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulecraft").get("command");
  const server = { command, args };
  client = new LanguageClient("rulecraft", "Rulecraft", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "rulecraft" },
      { scheme: "file", pattern: "**/*.{cards,deck,map,scenario}.yaml" },
    ],
  });
  client.start();
  context.subscriptions.push(client);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
