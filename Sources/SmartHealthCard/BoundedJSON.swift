import Foundation

/// JSON from untrusted bytes: nesting checked by a scan before `JSONSerialization` (whose
/// recursion it bounds), then only objects at the top, every decoded string checked (`CardText`).
enum BoundedJSON {
    static func object(_ bytes: [UInt8], maxDepth: Int, what: String) throws(SmartHealthCardError) -> [String: Any] {
        guard depth(of: bytes) <= maxDepth else { throw .malformedPayload("\(what) nests deeper than \(maxDepth)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .malformedPayload("\(what) is not a JSON object")
        }
        try CardText.check(object, in: what)
        return object
    }

    /// The deepest nesting of arrays and objects, strings skipped (escapes included).
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
