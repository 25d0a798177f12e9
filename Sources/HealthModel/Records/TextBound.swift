/// The one rule for a text bound stated in characters: at most that many characters *and* at
/// most four UTF-8 bytes for each (the most a character without combining marks takes). A bound
/// on `String.count` alone counts grapheme clusters, and one cluster can carry any number of
/// combining marks: a "256-character" brand of megabytes was stored (session 11 red team).
/// Used wherever a bound names characters (a contacts brand, an app manifest's texts, an
/// import's source); bounds stated in bytes count `utf8` directly.
public enum TextBound {
    public static func fits(_ text: String, characters limit: Int) -> Bool {
        // Bytes first: cheap, and it bounds the grapheme walk that follows.
        text.utf8.count <= limit * 4 && text.count <= limit
    }
}
