public import Foundation
public import HealthModel

/// Stored CDA documents: an OpenHealthKit `CDADocument` element and the bytes of the file it
/// names become one document sample again. The bytes are checked as an app's save checks them
/// by the caller, which holds the CDADocument module (its reader refuses a DOCTYPE, non-UTF-8 and
/// anything over `DocumentRules.maximumBytes`); healthd applies `DocumentRules` again.
extension ExportConversion {
    public static func sample(_ element: ExportDocument, data: Data) throws(ImportRefusal) -> ImportedSample {
        let header = element.header
        guard HKObjectType.type(forIdentifier: header.type) is HKDocumentType else {
            throw ImportRefusal(type: header.type, reason: "not a document type HealthKit knows")
        }
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .document(DocumentValue(data: data)), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        // The document's content, not its file name (a UUID the exporting store chose), is what
        // identifies it beside the header.
        var digest = StableHash.Digest()
        for byte in data { digest.append(byte) }
        addSyncIdentity(&sample, header, extra: [digest.hex])
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    /// The source name of a document read from a file no element names: the exporting store did
    /// not say which app saved it.
    public static let unnamedDocumentSource = "OpenHealthKit export (cda-documents)"

    /// A file under `cda-documents/` that no `CDADocument` element names. This project's exports
    /// before the element existed (commit 311aa25 up to c630896) wrote each stored document as
    /// `cda-documents/<UUID>.xml` — the sample's UUID in the exporting store, the bytes as saved,
    /// and nothing else: not its dates, source or metadata. So the sample's date is the
    /// document's own `effectiveTime` (`effectiveTime`, HL7 TS text, when its header has one),
    /// else the date the export was written (`exportDate`; the document is not later than that),
    /// and its identity is its type and bytes alone — the date may come from the export, which
    /// changes from export to export — so importing the file again, or the same document from
    /// another old export, adds nothing. The caller checks the bytes as for `sample(_:data:)`.
    public static func unnamedDocument(data: Data, path: String, effectiveTime: String?,
                                       exportDate: Date?) throws(ImportRefusal) -> ImportedSample {
        let type = HKDocumentTypeIdentifier.CDA.rawValue
        guard let date = effectiveTime.flatMap(cdaTime) ?? exportDate else {
            throw ImportRefusal(type: type, reason: "\(path.drop { $0 == "/" }): no date (the document has no effectiveTime and the export no ExportDate)")
        }
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: type, startDate: date, endDate: date,
                                  value: .document(DocumentValue(data: data)), metadata: [:], device: nil)
        // Fields joined by U+001F as `addSyncIdentity` joins them; the folder's name first, so
        // no element's identity (which starts with its type) can equal it.
        var digest = StableHash.Digest()
        digest.append(ExportArchiveWriter.documentsFolder)
        digest.separator()
        digest.append(type)
        digest.separator()
        for byte in data { digest.append(byte) }
        sample.metadata[HKMetadataKeySyncIdentifier] = .string(syncPrefix + digest.hex)
        sample.metadata[HKMetadataKeySyncVersion] = .number(1)
        return ImportedSample(record: sample, sourceName: unnamedDocumentSource, sourceVersion: nil, routes: [])
    }

    /// HL7 v3's TS text as CDA headers write it — `YYYYMMDD[HH[MM[SS[.F…]]]][±ZZZZ]`, e.g.
    /// Apple's `20160523182721+0100` — as a date, to the second; nil when it is not one. A
    /// missing time of day is midnight and a missing zone UTC (HL7 leaves both to the sender;
    /// UTC is the one reading that does not depend on the importing machine).
    static func cdaTime(_ text: String) -> Date? {
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard text.utf8.count <= 40 else { return nil }
        let bytes = Array(text.utf8)
        var digits = Array(bytes.prefix(while: isDigit))
        var rest = bytes.dropFirst(digits.count)
        guard [8, 10, 12, 14].contains(digits.count) else { return nil }
        if rest.first == UInt8(ascii: ".") {
            let fraction = rest.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty, digits.count == 14 else { return nil }
            rest = rest.dropFirst(1 + fraction.count)
        }
        let zone = rest.isEmpty ? Array("+0000".utf8) : Array(rest)
        guard zone.count == 5 else { return nil }
        digits += Array(repeating: UInt8(ascii: "0"), count: 14 - digits.count)
        // `ExportDate` reads iOS 8's compact `yyyyMMddHHmmss±hhmm`, strictly (no rolled-over fields).
        return ExportDate.parse(String(decoding: digits + zone, as: UTF8.self))
    }
}
