import Testing
@testable import FormatBundle

/// `MemberPath.check` keeps a plain path as it is without its full rules (`isPlain`): every path
/// it calls plain is one the full rules keep unchanged, and the unsafe forms are still refused.
@Suite struct MemberPathTests {
    /// Every path of up to three segments from pieces that are plain, and pieces that are not
    /// (empty, `.`, `..`, `...`, a backslash, a drive letter, NUL, non-ASCII, a trailing slash).
    static let paths: [String] = {
        let pieces = ["media", "a.jpg", "", ".", "..", "...", ".hidden", "b\\c", "C:", "x\u{0}y", "é", "e\u{301}", " "]
        var result: [String] = []
        for a in pieces {
            result.append(a)
            for b in pieces {
                result.append(a + "/" + b)
                for c in pieces { result.append(a + "/" + b + "/" + c) }
            }
        }
        return result + ["/abs", "\\abs", "C:/x", "c:x", "media/", "media//a", "./media", "media/./a"]
    }()

    @Test func aPlainPathIsOneTheFullRulesKeepAsItIs() {
        var plain = 0
        for path in Self.paths where MemberPath.isPlain(path) {
            plain += 1
            #expect(MemberPath.checkEveryRule(path) == .safe(path), "\(path.debugDescription)")
        }
        // "media", "a.jpg", ".hidden" and " " in any place, "C:" after the first ("..." is left to
        // the full rules, which keep it): 4 + 4 x 5 + 4 x 5 x 5.
        #expect(plain == 4 + 20 + 100)
    }

    @Test func theUnsafeFormsAreRefused() {
        #expect(MemberPath.check("/abs") == .unsafe("the path is absolute"))
        #expect(MemberPath.check("\\abs") == .unsafe("the path is absolute"))
        #expect(MemberPath.check("C:x") == .unsafe("the path starts with a drive letter"))
        #expect(MemberPath.check("media/../x") == .unsafe("the path has a '..' segment"))
        #expect(MemberPath.check("media\\..\\x") == .unsafe("the path has a '..' segment"))
        #expect(MemberPath.check("a\u{0}b") == .unsafe("the path holds a NUL byte"))
        #expect(MemberPath.check("./media//a/") == .safe("media/a"))
        #expect(MemberPath.check("./") == .root)
        #expect(MemberPath.check("e\u{301}.jpg") == .safe("\u{e9}.jpg"))
        #expect(MemberPath.check("media/Stories/s1/p.jpg") == .safe("media/Stories/s1/p.jpg"))
    }
}
