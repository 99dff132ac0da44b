import FerryCore
import FerryFilter

/// The notes V2 `wineTastingNotes` fields of SCHEMAS.md, built by hand, and a few records.
enum NotesSchema {
    static let wine: [String: FilterFieldType] = [
        "id": .string,
        "title": .string,
        "category": .string,
        "createdAt": .instant,
        "alcoholByVolume": .number,
        "look": .object(["tint": .string, "note": .string]),
        "smells": .list(of: .object(["label": .string])),
        "tastes": .list(of: .object(["label": .string, "value": .number])),
        "grape": .object(["variety": .string]),
        "think": .string,
        "rating": .number,
        "isFavorite": .bool,
    ]

    static let schema = FilterSchema(collections: [
        "wineTastingNotes": wine,
        "whiskeyTastingNotes": [
            "id": .string, "title": .string, "rating": .number,
            "finish": .object(["length": .enumeration(["short", "medium", "long"]), "note": .string]),
        ],
    ])

    static func note(
        _ id: String, title: String, rating: Double, createdAt: String = "2024-03-01T10:00:00Z",
        smells: [String] = [], tastes: [(String, Double)] = [], isFavorite: Bool = false
    ) -> Value {
        .object([
            "id": .string(id),
            "title": .string(title),
            "category": "red",
            "createdAt": .string(createdAt),
            "alcoholByVolume": 13.5,
            "look": ["tint": "ruby", "note": "bright"],
            "smells": .array(smells.map { ["label": .string($0)] }),
            "tastes": .array(tastes.map { ["label": .string($0.0), "value": .double($0.1)] }),
            "grape": ["variety": "pinot noir"],
            "think": "",
            "rating": .double(rating),
            "isFavorite": .bool(isFavorite),
        ])
    }

    static let records: [Value] = [
        note("n1", title: "Pinot Noir 2019", rating: 4.5, createdAt: "2023-12-31T23:00:00Z", smells: ["oak", "cherry"],
             tastes: [("acid", 0.7), ("tannin", 0.4), ("sweet", 0.1)], isFavorite: true),
        note("n2", title: "Old PINOT", rating: 3.5, createdAt: "2024-01-01T00:00:00Z", smells: ["vanilla"],
             tastes: [("acid", 0.6)]),
        note("n3", title: "Chardonnay", rating: 4, createdAt: "2024-06-15T08:30:00+09:00", smells: [],
             tastes: [("acid", 0.8), ("butter", 0.9)]),
        note("n4", title: "pinot gris", rating: 4, createdAt: "2024-02-01T00:00:00.250Z", smells: ["oak", "pear"],
             tastes: [], isFavorite: true),
        note("n5", title: "Café de Paris", rating: 5, createdAt: "2023-06-01T12:00:00Z", smells: ["Oak"],
             tastes: [("acid", 0.5), ("tannin", 0.6)]),
    ]
}
