// Regenerates the writer goldens with JavaScript's own JSON.stringify: `node make-goldens.js` in this folder.
// `exact` stands for the number text 1.50, which JavaScript cannot keep; it is put back by `fix`.
const fs = require('fs');
const w1 = {id: "w1", title: "샤토 마고", alcoholByVolume: 13, think: "line1\nline2\t\"quoted\" back\\slash /slash \u0001\u001f\u007f\b\f\r", smells: [], look: {}, tastes: [{label: "산미", value: 0.5}, {label: "body", value: 0.75}], tiny: 1e-7, big: 1e21, count: 13, exact: 424242.5, ok: true, none: null};
const w2 = {id: "w2", title: "日本酒"};
const c1 = {id: "c1", title: "エチオピア", rating: 4.5};
const c2 = {id: "c2", nested: [[], [1, [2]], {a: {}}]};
const e1 = {x: 1};
const doc = {domain: "notes", schemaVersion: 2, wineTastingNotes: [w1, w2], coffeeTastingNotes: [c1, c2], whiskeyTastingNotes: [], extras: [e1]};
const fix = s => s.replace("424242.5", "1.50");
fs.writeFileSync("canonical-pretty.json", fix(JSON.stringify(doc, null, 2)) + "\n");
fs.writeFileSync("canonical-compact.json", fix(JSON.stringify(doc)) + "\n");
// JSON Lines in arrival order: c1, w1, e1, c2, w2
const line = (c, r) => JSON.stringify(Object.assign({"$collection": c}, r));
const jsonl = '{"domain": "notes", "schemaVersion": 2}\n' + [line("coffeeTastingNotes", c1), line("wineTastingNotes", w1), line("extras", e1), line("coffeeTastingNotes", c2), line("wineTastingNotes", w2)].map(fix).join("\n") + "\n";
fs.writeFileSync("arrival.jsonl", jsonl);
