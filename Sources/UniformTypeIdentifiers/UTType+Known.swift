/// The well-known types HealthKit attachments use (images and documents of a prescription) and
/// their ancestors, with Apple's identifiers, preferred extensions and MIME types
/// (developer.apple.com/documentation/uniformtypeidentifiers/system-declared-uniform-type-identifiers).
extension UTType {
    struct Known {
        let identifier: String
        let parents: [String]
        let extensions: [String]
        let mimeTypes: [String]
    }

    static let known: [Known] = [
        Known(identifier: "public.item", parents: [], extensions: [], mimeTypes: []),
        Known(identifier: "public.content", parents: [], extensions: [], mimeTypes: []),
        Known(identifier: "public.data", parents: ["public.item"], extensions: [], mimeTypes: ["application/octet-stream"]),
        Known(identifier: "public.image", parents: ["public.data", "public.content"], extensions: [], mimeTypes: []),
        Known(identifier: "public.jpeg", parents: ["public.image"], extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg"]),
        Known(identifier: "public.png", parents: ["public.image"], extensions: ["png"], mimeTypes: ["image/png"]),
        Known(identifier: "public.heic", parents: ["public.image"], extensions: ["heic"], mimeTypes: ["image/heic"]),
        Known(identifier: "public.heif", parents: ["public.image"], extensions: ["heif"], mimeTypes: ["image/heif"]),
        Known(identifier: "public.tiff", parents: ["public.image"], extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"]),
        Known(identifier: "com.compuserve.gif", parents: ["public.image"], extensions: ["gif"], mimeTypes: ["image/gif"]),
        Known(identifier: "com.adobe.pdf", parents: ["public.data", "public.composite-content"], extensions: ["pdf"],
              mimeTypes: ["application/pdf"]),
        Known(identifier: "public.composite-content", parents: ["public.content"], extensions: [], mimeTypes: []),
        Known(identifier: "public.text", parents: ["public.data", "public.content"], extensions: [], mimeTypes: []),
        Known(identifier: "public.plain-text", parents: ["public.text"], extensions: ["txt", "text"], mimeTypes: ["text/plain"]),
        Known(identifier: "public.utf8-plain-text", parents: ["public.plain-text"], extensions: [], mimeTypes: []),
        Known(identifier: "public.json", parents: ["public.text"], extensions: ["json"], mimeTypes: ["application/json"]),
        Known(identifier: "public.xml", parents: ["public.text"], extensions: ["xml"], mimeTypes: ["application/xml", "text/xml"]),
        Known(identifier: "public.comma-separated-values-text", parents: ["public.text"], extensions: ["csv"], mimeTypes: ["text/csv"]),
    ]

    static func entry(_ identifier: String) -> Known? { known.first { $0.identifier == identifier } }

    public static let item = UTType(known: "public.item")
    public static let content = UTType(known: "public.content")
    public static let data = UTType(known: "public.data")
    public static let image = UTType(known: "public.image")
    public static let jpeg = UTType(known: "public.jpeg")
    public static let png = UTType(known: "public.png")
    public static let heic = UTType(known: "public.heic")
    public static let heif = UTType(known: "public.heif")
    public static let tiff = UTType(known: "public.tiff")
    public static let gif = UTType(known: "com.compuserve.gif")
    public static let pdf = UTType(known: "com.adobe.pdf")
    public static let compositeContent = UTType(known: "public.composite-content")
    public static let text = UTType(known: "public.text")
    public static let plainText = UTType(known: "public.plain-text")
    public static let utf8PlainText = UTType(known: "public.utf8-plain-text")
    public static let json = UTType(known: "public.json")
    public static let xml = UTType(known: "public.xml")
    public static let commaSeparatedText = UTType(known: "public.comma-separated-values-text")
}
