import FerryCore
import FerrySchemas
import Testing

@Suite struct PetStoryMigrationTests {
    let member: Value = [
        "id": "m1", "name": "Pip", "since": "2024-03-01T20:00:00Z", "birthDate": "2023-06-01", "type": "bird",
        "sex": "female", "bio": "loud", "createdAt": "2024-03-01T20:00:00Z",
    ]

    func story(_ extra: [(String, Value)] = []) -> Value {
        var object: ValueObject = [
            "id": "s1", "caption": "walk", "createdAt": "2024-05-01T09:30:00Z", "mediaContentIds": ["a", "b"],
            "taggedMemberIds": ["m1"],
        ]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    @Test func memberDaysInTheTimeZoneAndImage() throws {
        let catalog = ListedMediaCatalog(paths: ["media/MemberImages/m1.JPG"])
        let result = try run(.petStory, from: 1, to: 2, [makeRecord("members", 0, member)]) {
            $0.timeZone = "Asia/Tokyo"
            $0.media = catalog
        }
        #expect(result.diagnostics == ["note assumption 2:3 -"])
        #expect(result.log.diagnostics[0].message == "calendar days (birthDate, since) are taken in time zone Asia/Tokyo (--time-zone)")
        #expect(result.records.first?.value == [
            "id": "m1", "name": "Pip", "since": "2024-03-02", "birthDate": "2023-06-01", "species": "bird", "sex": "female",
            "bio": "loud", "createdAt": "2024-03-01T20:00:00Z", "image": ["path": "media/MemberImages/m1.JPG"],
        ])
    }

    @Test func birthDateAfterTheDayOfCreatedAtIsAnError() throws {
        var object = member.objectValue!
        object["birthDate"] = "2024-03-02T01:00:00+09:00"  // 2024-03-01T16:00Z
        let record = makeRecord("members", 0, .object(object), fields: ["/birthDate": (5, 20)])
        // In UTC both are 2024-03-01: fine.
        #expect(try run(.petStory, from: 1, to: 2, [record]).records.count == 1)
        // createdAt 2024-03-01T20:00Z is 2024-03-02 in Tokyo too; birthDate 2024-03-02: fine.
        #expect(try run(.petStory, from: 1, to: 2, [record]) { $0.timeZone = "Asia/Tokyo" }.records.count == 1)
        object["birthDate"] = "2024-03-05"
        let late = try run(.petStory, from: 1, to: 2, [makeRecord("members", 0, .object(object), fields: ["/birthDate": (5, 20)])])
        #expect(late.diagnostics == ["note assumption 2:3 -", "error invalid-value 5:20 /members/0/birthDate"])
        #expect(late.log.diagnostics[1].message == "birthDate 2024-03-05 is after the day of createdAt (2024-03-01 in UTC)")
    }

    @Test func storyMediaFromTheCatalogAndLocation() throws {
        let catalog = ListedMediaCatalog(paths: ["media/Stories/s1/a.HEIC", "media/Stories/s1/b.mov", "media/Stories/s1/c.m4a"])
        let records = [
            makeRecord("members", 0, member),
            makeRecord("stories", 0, story([("lat", .number("35.6")), ("lng", .number("139.7")), ("songId", "song")])),
        ]
        let result = try run(.petStory, from: 1, to: 2, records) { $0.media = catalog }
        #expect(result.diagnostics == ["note assumption 2:3 -"])
        #expect(result.records.last?.value == [
            "id": "s1", "caption": "walk", "createdAt": "2024-05-01T09:30:00Z",
            "media": [
                ["id": "a", "kind": "photo", "path": "media/Stories/s1/a.HEIC"],
                ["id": "b", "kind": "video", "path": "media/Stories/s1/b.mov"],
            ],
            "songId": "song", "location": ["latitude": 35.6, "longitude": 139.7], "taggedMemberIds": ["m1"],
        ])
    }

    @Test func mediaKindsByExtension() {
        #expect(PetStoryV2.MediaKind(path: "a/b.JPEG") == .photo)
        #expect(PetStoryV2.MediaKind(path: "a/b.gif") == .photo)
        #expect(PetStoryV2.MediaKind(path: "a/b.MP4") == .video)
        #expect(PetStoryV2.MediaKind(path: "a/b.mp3") == .audio)
        #expect(PetStoryV2.MediaKind(path: "a/b.webp") == .unknown)
        #expect(PetStoryV2.MediaKind(path: "a/b") == .unknown)
    }

    @Test func loneJSONMediaIsAWarning() throws {
        let record = makeRecord("stories", 0, story([("taggedMemberIds", [])]), fields: ["/mediaContentIds/1": (4, 30)])
        let result = try run(.petStory, from: 1, to: 2, [record])
        #expect(result.diagnostics == [
            "warning media-not-found 2:3 /stories/0/mediaContentIds/0", "warning media-not-found 4:30 /stories/0/mediaContentIds/1",
        ])
        #expect(result.records.first?.value.objectValue?["media"] == [
            ["id": "a", "kind": "unknown", "path": "media/Stories/s1/a"],
            ["id": "b", "kind": "unknown", "path": "media/Stories/s1/b"],
        ])
    }

    @Test func missingAndDoubledMediaAreErrors() throws {
        let catalog = ListedMediaCatalog(paths: ["media/Stories/s1/b.jpg", "media/Stories/s1/b.png"])
        let record = makeRecord("stories", 0, story([("taggedMemberIds", [])]))
        let result = try run(.petStory, from: 1, to: 2, [record]) { $0.media = catalog }
        #expect(result.diagnostics == [
            "error missing-media 2:3 /stories/0/mediaContentIds/0", "error invalid-value 2:3 /stories/0/mediaContentIds/1",
        ])
        #expect(result.log.diagnostics.map(\.message) == [
            #"no file for media "a" ("Stories/s1/a.*")"#,
            #"2 files for media "b": "media/Stories/s1/b.jpg", "media/Stories/s1/b.png""#,
        ])
        #expect(result.log.diagnostics.map(\.location.recordID) == ["s1", "s1"])
        #expect(result.records.isEmpty)
    }

    @Test func latWithoutLngIsAnErrorNamingTheStory() throws {
        let record = makeRecord("stories", 5, story([("lat", 1), ("mediaContentIds", []), ("taggedMemberIds", [])]),
            fields: ["/lat": (8, 12)])
        let result = try run(.petStory, from: 1, to: 2, [record])
        #expect(result.diagnostics == ["error invalid-value 8:12 /stories/5/lat"])
        #expect(result.log.diagnostics[0].message == "lat without lng; a location needs both")
        #expect(result.log.diagnostics[0].location.recordID == "s1")
    }

    @Test func outOfRangeLatitudePointsAtLat() throws {
        let record = makeRecord("stories", 0, story([("lat", 91), ("lng", 0), ("mediaContentIds", []), ("taggedMemberIds", [])]),
            fields: ["/lat": (8, 12)])
        let result = try run(.petStory, from: 1, to: 2, [record])
        #expect(result.diagnostics == ["error out-of-range 8:12 /stories/0/lat"])
        #expect(result.log.diagnostics[0].message == "location/latitude 91 is out of range -90...90")
    }

    @Test func profileImageAndTimes() throws {
        let catalog = ListedMediaCatalog(paths: ["ProfileImages/p1.png"])
        let profile: Value = [
            "id": "p1", "name": "Ann", "createdAt": "2024-01-01T00:00:00Z", "lastUpdatedAt": "2024-02-01T00:00:00Z",
        ]
        let result = try run(.petStory, from: 1, to: 2, [makeRecord("profiles", 0, profile)]) { $0.media = catalog }
        #expect(result.records.first?.value == [
            "id": "p1", "name": "Ann", "createdAt": "2024-01-01T00:00:00Z", "lastUpdatedAt": "2024-02-01T00:00:00Z",
            "image": ["path": "ProfileImages/p1.png"],
        ])
        let backwards: Value = [
            "id": "p1", "name": "Ann", "createdAt": "2024-03-01T00:00:00Z", "lastUpdatedAt": "2024-02-01T00:00:00Z",
        ]
        let bad = try run(.petStory, from: 2, to: 2, [makeRecord("profiles", 0, backwards)])
        #expect(bad.diagnostics == ["error invalid-value 2:3 /profiles/0/lastUpdatedAt"])
    }

    @Test func v2MediaPathsMustExistWithACatalog() throws {
        let v2: Value = [
            "id": "s1", "caption": "", "createdAt": "2024-05-01T09:30:00Z",
            "media": [["id": "a", "kind": "photo", "path": "media/Stories/s1/a.jpg"], ["id": "b", "kind": "photo", "path": "../x.jpg"]],
            "taggedMemberIds": [],
        ]
        let bad = try run(.petStory, from: 2, to: 2, [makeRecord("stories", 0, v2)])
        #expect(bad.diagnostics == ["error invalid-value 2:3 /stories/0/media/1/path"])
        var object = v2.objectValue!
        object["media"] = [["id": "a", "kind": "photo", "path": "media/Stories/s1/a.jpg"]]
        let missing = try run(.petStory, from: 2, to: 2, [makeRecord("stories", 0, .object(object))]) {
            $0.media = ListedMediaCatalog(paths: [])
        }
        #expect(missing.diagnostics == ["error missing-media 2:3 /stories/0/media/0/path"])
    }
}

@Suite struct IntegrityTests {
    let member: Value = [
        "id": "m1", "name": "Pip", "since": "2024-03-01", "birthDate": "2023-06-01", "species": "dog",
        "sex": "unknown", "bio": "", "createdAt": "2024-03-01T20:00:00Z",
    ]

    func story(_ id: String, tagged: [Value]) -> Value {
        ["id": .string(id), "caption": "", "createdAt": "2024-05-01T09:30:00Z", "media": [], "taggedMemberIds": .array(tagged)]
    }

    @Test func referencesResolveWhereverTheMemberStands() throws {
        let records = [
            makeRecord("stories", 0, story("s1", tagged: ["m1", "m2"]), line: 3, fields: ["/taggedMemberIds/1": (3, 40)]),
            makeRecord("members", 0, member, line: 10),
        ]
        let result = try run(.petStory, from: 2, to: 2, records)
        // V2 -> V2: days are already days, so no time-zone note.
        #expect(result.diagnostics == ["error dangling-reference 3:40 /stories/0/taggedMemberIds/1"])
        #expect(result.log.diagnostics.first?.message == "taggedMemberIds[1] \"m2\" names no member of the dataset")
        // Returned before finish(): the record is valid on its own.
        #expect(result.records.count == 2)
    }

    /// A reference to an id read before is settled on commit; the others are located then and
    /// reported after the last record, in the order they were made.
    @Test func referencesToIDsReadBeforeAreSettledOnCommit() throws {
        let records = [
            makeRecord("members", 0, member, line: 2),
            makeRecord("stories", 0, story("s1", tagged: ["m1", "ghost", "m9"]), line: 5,
                fields: ["/taggedMemberIds/1": (5, 30), "/taggedMemberIds/2": (5, 40)]),
        ]
        let result = try run(.petStory, from: 2, to: 2, records)
        #expect(result.diagnostics == [
            "error dangling-reference 5:30 /stories/0/taggedMemberIds/1",
            "error dangling-reference 5:40 /stories/0/taggedMemberIds/2",
        ])
        #expect(result.log.diagnostics.map(\.message) == [
            "taggedMemberIds[1] \"ghost\" names no member of the dataset",
            "taggedMemberIds[2] \"m9\" names no member of the dataset",
        ])
        #expect(result.records.count == 2)
    }

    @Test func duplicateIDsAreErrorsEvenWhenIdentical() throws {
        let records = [
            makeRecord("members", 0, member, line: 4, fields: ["/id": (4, 11)]),
            makeRecord("members", 1, member, line: 9, fields: ["/id": (9, 11)]),
        ]
        let result = try run(.petStory, from: 2, to: 2, records)
        #expect(result.diagnostics == ["error duplicate-id 9:11 /members/1/id"])
        #expect(result.log.diagnostics.first?.message == "duplicate id \"m1\" in members: first at line 4 (/members/0)")
        #expect(result.records.count == 1)
    }

    @Test func v1StoriesCheckReferencesToo() throws {
        let v1Story: Value = [
            "id": "s1", "caption": "", "createdAt": "2024-05-01T09:30:00Z", "mediaContentIds": [], "taggedMemberIds": ["ghost"],
        ]
        let result = try run(.petStory, from: 1, to: 1, [makeRecord("stories", 0, v1Story)])
        #expect(result.diagnostics == ["error dangling-reference 2:3 /stories/0/taggedMemberIds/0"])
    }
}
