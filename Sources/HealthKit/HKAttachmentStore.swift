public import Foundation
import HealthModel
import HealthWire

/// HealthKit's `HKAttachmentStore` (iOS 16+): "The access point for attachments associated with
/// samples in the HealthKit store" (developer.apple.com/documentation/healthkit/hkattachmentstore).
///
/// The rules healthd keeps (SECURITY.md "Attachments"): attachments go on vision prescriptions;
/// adding one needs share permission for the object's type and an object this app can read; an
/// attachment is visible exactly when its object is, and an object the app cannot read answers as
/// one that does not exist (no attachments; adding fails with `errorInvalidArgument`). At most
/// 16 MiB per attachment, 16 per object, 256 MiB per app. An app removes only attachments it
/// added. While the store is locked every call fails with `errorDatabaseInaccessible`.
public final class HKAttachmentStore: NSObject, @unchecked Sendable {
    // @unchecked: the one stored property is immutable and Sendable.
    private let healthStore: HKHealthStore

    public init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
        super.init()
    }

    // MARK: Adding

    /// "Asynchronously adds an attachment to the specified object" — `url` "must be a local file
    /// url" (developer.apple.com/documentation/healthkit/hkattachmentstore/addattachment(to:name:contenttype:url:metadata:)).
    /// The file is read by this process, a chunk at a time, and stored in healthd's encrypted store.
    public func addAttachment(to object: HKObject, name: String, contentType: UTType, url: URL,
                              metadata: [String: Any] = [:]) async throws -> HKAttachment {
        let reference = try Self.reference(object)
        try AttachmentRules.checkAttachable(reference.typeIdentifier ?? "")
        let (values, metadataError) = MetadataConversion.convert(metadata)
        if let metadataError { throw metadataError }
        let file = try AttachmentFile(url)
        // Checked here too so a bad name or an oversized file fails before any byte is sent.
        try AttachmentRules.check(name: name, contentType: contentType.identifier, size: file.size, metadata: values ?? [:])
        let record = try await healthStore.connection.addAttachment(to: reference, name: name, contentType: contentType.identifier,
                                                                    file: file, metadata: values ?? [:])
        return HKAttachment(record, objectTypeIdentifier: reference.typeIdentifier ?? "")
    }

    public func addAttachment(to object: HKObject, name: String, contentType: UTType, url: URL, metadata: [String: Any] = [:],
                              completion: @escaping @Sendable (HKAttachment?, (any Error)?) -> Void) {
        let metadata = SendableMetadata(metadata)
        Task {
            do {
                completion(try await addAttachment(to: object, name: name, contentType: contentType, url: url, metadata: metadata.value), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    // MARK: Listing

    /// The object's attachments, oldest first; none for an object without any — and for one this
    /// app cannot read, or that does not exist.
    public func attachments(for object: HKObject) async throws -> [HKAttachment] {
        let reference = try Self.reference(object)
        return try await healthStore.connection.attachments(of: reference).map {
            HKAttachment($0, objectTypeIdentifier: reference.typeIdentifier ?? "")
        }
    }

    public func getAttachments(for object: HKObject, completion: @escaping @Sendable ([HKAttachment]?, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await attachments(for: object), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    // MARK: Removing

    /// Removes `attachment` from `object`: the app needs share permission for the object's type,
    /// and may remove only attachments it added. One that is gone fails with `errorNoData`.
    public func removeAttachment(_ attachment: HKAttachment, from object: HKObject) async throws {
        try await healthStore.connection.removeAttachment(attachment.identifier, from: try Self.reference(object))
    }

    public func removeAttachment(_ attachment: HKAttachment, from object: HKObject,
                                 completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.removeAttachment(attachment, from: object) }
    }

    // MARK: Reading

    /// "Returns a data reader for the attachment"
    /// (developer.apple.com/documentation/healthkit/hkattachmentstore/datareader(for:)).
    public func dataReader(for attachment: HKAttachment) -> HKAttachmentDataReader {
        HKAttachmentDataReader(attachment: attachment, connection: healthStore.connection)
    }

    /// The whole of the attachment's data, once read; the returned progress counts its bytes,
    /// and cancelling it stops the read (the completion then gets `errorUserCanceled`).
    @discardableResult
    public func getData(for attachment: HKAttachment, completion: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        let reader = dataReader(for: attachment)
        let task = Task {
            do {
                completion(try await reader.data, nil)
            } catch {
                completion(nil, error)
            }
        }
        reader.progress.cancellationHandler = { task.cancel() }
        return reader.progress
    }

    /// Calls `dataHandler` with each chunk of the attachment's data in order, the last with done
    /// true (a 0-byte attachment: one empty chunk, done); on failure once with nil data, the
    /// error, and done true (developer.apple.com/documentation/healthkit/hkattachmentstore/streamdata(for:datahandler:)).
    @discardableResult
    public func streamData(for attachment: HKAttachment, dataHandler: @escaping @Sendable (Data?, (any Error)?, Bool) -> Void) -> Progress {
        let reader = dataReader(for: attachment)
        let progress = reader.progress
        let task = Task {
            do {
                try await reader.read { chunk, done in dataHandler(Data(chunk), nil, done) }
            } catch {
                dataHandler(nil, error, true)
            }
        }
        progress.cancellationHandler = { task.cancel() }
        return progress
    }

    /// The object as healthd is asked about it: its UUID and the type the app holds it as.
    static func reference(_ object: HKObject) throws(HKError) -> AttachmentObjectRef {
        guard let sample = object as? HKSample else {
            throw HKError(.errorInvalidArgument, "attachments belong to samples stored in HealthKit; this object is not a sample")
        }
        return AttachmentObjectRef(uuid: sample.uuid, typeIdentifier: sample.sampleType.identifier)
    }
}

/// `[String: Any]` crossing into the completion form's task: the values are the metadata kinds
/// HealthKit takes (strings, numbers, dates, quantities), converted and checked before use.
private struct SendableMetadata: @unchecked Sendable {
    let value: [String: Any]
    init(_ value: [String: Any]) { self.value = value }
}
