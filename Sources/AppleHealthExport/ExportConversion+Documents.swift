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
}
