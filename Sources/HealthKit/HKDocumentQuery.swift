public import Foundation
import HealthWire

/// Documents of one type, as HealthKit's `HKDocumentQuery`: the matching `HKCDADocumentSample`s
/// with their `document` set, its `documentData` only when `includeDocumentData` is true.
///
/// The handler is called as HealthKit documents it: once per batch of results with `done`
/// false, then once with `done` true (and no further results), or once with an error and
/// `done` true. developer.apple.com/documentation/healthkit/hkdocumentquery/
/// init(documenttype:predicate:limit:sortdescriptors:includedocumentdata:resultshandler:)
///
/// Consent is per document, as Apple documents it: "The user is asked to authorize each CDA
/// document the first time that document is returned by an HKDocumentQuery query"
/// (developer.apple.com/documentation/healthkit/hkcdadocumentsample/document). With the CDA
/// type's read permission, each query offers the user (`healthctl object-requests`) the matching
/// documents they have not decided on for this app, and returns at once with this app's own
/// documents and those the user allowed; the ones allowed later arrive with the next query (and
/// through anchored and observer queries). Unlike Apple's, the query does not wait for the
/// answer: its timing would tell the app that there was something to ask (README). Without the
/// read permission the query sees only the documents this app saved, and nothing is offered.
public final class HKDocumentQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKDocumentQuery, [HKDocumentSample]?, Bool, (any Error)?) -> Void

    public let limit: Int
    public let sortDescriptors: [NSSortDescriptor]?
    public let includeDocumentData: Bool
    private let resultsHandler: ResultsHandler
    /// Worked out in the initializer, which cannot fail in HealthKit; an error reaches the handler on execute.
    private let spec: Result<SampleQuerySpec, HKError>

    @preconcurrency
    public init(documentType: HKDocumentType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
                includeDocumentData: Bool, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.includeDocumentData = includeDocumentData
        self.resultsHandler = resultsHandler
        spec = Result { () throws(HKError) in
            try HKSampleQuery.spec(type: documentType, predicate: predicate, limit: limit, sortDescriptors: sortDescriptors ?? [])
        }
        super.init(objectType: documentType, predicate: predicate)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let spec = try spec.get()
                let _: EmptyMessage = try await connection.call(.offerDocuments, spec)
                try await connection.sampleBatches(matching: spec) { batch in
                    let documents = batch.compactMap { $0 as? HKCDADocumentSample }
                    for document in documents { document.attachDocument(includingData: includeDocumentData) }
                    if !documents.isEmpty { resultsHandler(self, documents, false, nil) }
                }
                resultsHandler(self, [], true, nil)
            } catch {
                resultsHandler(self, nil, true, error)
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, true, HKError(.errorInvalidArgument,
                                                        "this HKDocumentQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
