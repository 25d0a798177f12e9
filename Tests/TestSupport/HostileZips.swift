public import Foundation

/// Zips whose ZIP64 fields point past their own end (crashhunt22, finding 2). Each is a valid
/// one-entry export (`apple_health_export/export.xml`, an empty HealthData, deflated) that
/// ZIPFoundation 0.9.20 read to a trap (`off_t(offset)` of a UInt64 past Int64.max): healthctl
/// import ended with SIGILL. Made with Python's zipfile, then edited; kept as bytes so the
/// tests need nothing to make them.
public enum HostileZips {
    /// A ZIP64 end record and locator inserted before the end record; the record's offset of
    /// the central directory is 0xFFFF_FFFF_FFFF_FFFF (the true one is 174). 348 bytes.
    public static let directoryOffset = bytes("""
        UEsDBBQAAAAIAH0/fF3xNGeycgAAAIEAAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1ss7GvyM1RKEstKs7Mz7NVMtQzUFJIzUvO\
        T8nMS7dVCg1x07VQsrfjsvFITcwpyXBJLElUyMlPTsxJtVVKzYsPDVYCyrlWFOQXlQDlUhXKEnNKgVJGBkYGugaGugZGCoYGVgYgpKBtAARK+kD1\
        +gjD7LgAUEsBAhQDFAAAAAgAfT98XfE0Z7JyAAAAgQAAAB4AAAAAAAAAAAAAAIABAAAAAGFwcGxlX2hlYWx0aF9leHBvcnQvZXhwb3J0LnhtbFBL\
        BgYsAAAAAAAAAC0ALQAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAABMAAAAAAAAAP//////////UEsGBwAAAAD6AAAAAAAAAAEAAABQSwUGAAAAAAEA\
        AQBMAAAArgAAAAAA
        """)
    /// Where in `directoryOffset` the ZIP64 record's directory offset lies (8 bytes).
    public static let directoryOffsetField = 348 - 22 - 20 - 8

    /// No ZIP64 end record; the entry's directory record gives its local header's offset as
    /// 0xFFFF_FFFF and a ZIP64 extra field (0x0001, 8 bytes) gives 0xFFFF_FFFF_FFFF_FFFF. 284 bytes.
    public static let localHeaderOffset = bytes("""
        UEsDBBQAAAAIAJJAfF3xNGeycgAAAIEAAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1ss7GvyM1RKEstKs7Mz7NVMtQzUFJIzUvO\
        T8nMS7dVCg1x07VQsrfjsvFITcwpyXBJLElUyMlPTsxJtVVKzYsPDVYCyrlWFOQXlQDlUhXKEnNKgVJGBkYGugaGugZGCoYGVgYgpKBtAARK+kD1\
        +gjD7LgAUEsBAhQDLQAAAAgAkkB8XfE0Z7JyAAAAgQAAAB4ADAAAAAAAAAAAAIAB/////2FwcGxlX2hlYWx0aF9leHBvcnQvZXhwb3J0LnhtbAEA\
        CAD//////////1BLBQYAAAAAAQABAFgAAACuAAAAAAA=
        """)
    /// Where `localHeaderOffset`'s one directory record starts.
    public static let localHeaderOffsetDirectoryRecord = 174

    static func bytes(_ base64: String) -> [UInt8] {
        // A literal of ours: decoding it cannot fail unless the literal is edited wrongly.
        [UInt8](Data(base64Encoded: base64) ?? Data())
    }

    /// Writes `bytes` to a new file in the temporary folder and returns its URL.
    public static func write(_ bytes: [UInt8], name: String = "export.zip") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// `bytes` with `value` written little-endian over `width` bytes at `offset`.
    public static func patched(_ bytes: [UInt8], _ value: UInt64, at offset: Int, width: Int) -> [UInt8] {
        var bytes = bytes
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        return bytes
    }
}
