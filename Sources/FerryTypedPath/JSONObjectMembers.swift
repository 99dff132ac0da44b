import FormatJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONLineValidator {
    /// One member of an object: its key (from its opening quote to past its closing one, and
    /// whether it holds an escape) and its value (first byte, and past its last).
    struct Member {
        var key: Int
        var keyEnd: Int
        var escaped: Bool
        var value: Int
        var valueEnd: Int

        /// The length of the key's text between its quotes, in bytes as written.
        var keyLength: Int { keyEnd - key - 2 }
    }

    /// True when `member`'s key, as written between its quotes, is the bytes of `name` (an
    /// escaped key is compared as written: callers that accept one decode it first).
    @inline(__always)
    func key(_ member: Member, is name: StaticString) -> Bool {
        member.keyLength == name.utf8CodeUnitCount && memcmp(p + member.key + 1, name.utf8Start, member.keyLength) == 0
    }

    /// The members of the object whose opening brace is at `open`, and the offset past its
    /// closing brace; nil when it is not an object or not well-formed. Its keys, colons and commas
    /// are checked against the grammar here; its values are not (their ends are found by the
    /// bracket scan): whoever reads or copies a value checks it, as the parser checks every byte.
    func members(ofObjectAt open: Int) -> (members: [Member], end: Int)? {
        var result: [Member] = []
        var count = 0
        guard let end = appendMembers(ofObjectAt: open, to: &result, count: &count) else { return nil }
        return (result, end)
    }

    /// `members(ofObjectAt:)` written into `members` from index `count` on (a scratch list kept
    /// from object to object, grown when full), `count` advanced past them; the offset past the
    /// closing brace, or nil (`count` may then have advanced over some of them).
    func appendMembers(ofObjectAt open: Int, to members: inout [Member], count: inout Int) -> Int? {
        guard open < end, p[open] == JSONSyntax.openBrace else { return nil }
        let bytes = UnsafeBufferPointer(start: p, count: end)
        var next = firstItem(afterOpen: open, close: JSONSyntax.closeBrace)
        while case .item(let key)? = next {
            guard p[key] == JSONSyntax.quote, let (keyEnd, escaped) = string(key),
                  let value = memberValue(afterKey: keyEnd), let valueEnd = JSONSyntax.endOfValue(in: bytes, from: value)
            else { return nil }
            let member = Member(key: key, keyEnd: keyEnd, escaped: escaped, value: value, valueEnd: valueEnd)
            if count < members.count { members[count] = member } else { members.append(member) }
            count += 1
            next = afterItem(valueEnd, close: JSONSyntax.closeBrace)
        }
        guard case .closed(let end)? = next else { return nil }
        return end
    }
}
