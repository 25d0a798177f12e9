import HealthModel

/// Every string a card's JSON decodes to — keys and values, anywhere in the file, the JWS header,
/// the payload or the issuer's key file — checked once, where `BoundedJSON` decodes it: none may
/// hold a character that steers a terminal rather than being shown (`TerminalControlCharacters`:
/// NUL and the other C0/C1 controls, bidirectional overrides, line and paragraph separators).
///
/// Why the whole tree and not the fields kept: a JSON escape (`\u0000`, `\n`, `\u202e`) decodes
/// into any string, and the fields kept change as the reader grows; a card whose type held a
/// newline forged a "signature verified" line in `healthctl verifiable-records list`, and one with
/// `\u0000` was stored and then broke every listing, since the wire carries no NUL (red team,
/// session 22, findings 2 and 4). Such a card is refused before anything is stored, naming where.
enum CardText {
    static func check(_ value: Any, in what: String) throws(SmartHealthCardError) {
        try check(value, path: "", what: what)
    }

    private static func check(_ value: Any, path: String, what: String) throws(SmartHealthCardError) {
        if let text = value as? String {
            try checkString(text, path: path, what: what)
        } else if let object = value as? [String: Any] {
            for (key, member) in object {
                try checkString(key, path: path.isEmpty ? "a key" : path + "'s key", what: what)
                try check(member, path: path.isEmpty ? key : path + "." + key, what: what)
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                try check(element, path: path + "[\(index)]", what: what)
            }
        }
    }

    private static func checkString(_ text: String, path: String, what: String) throws(SmartHealthCardError) {
        guard let (scalar, _) = TerminalControlCharacters.first(in: text) else { return }
        // The path is made of keys already checked; long ones are cut so the error stays short.
        let field = path.isEmpty ? what : "\(what) (at \(path.utf8.count > 200 ? String(path.prefix(200)) + "…" : path))"
        throw .unsafeText(field: field, scalar: scalar.value)
    }
}
