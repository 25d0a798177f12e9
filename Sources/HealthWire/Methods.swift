/// Method names in gRPC form. Each service's list is the complete set its socket serves.
public enum HealthStoreMethod: String, CaseIterable, Sendable {
    case getRequestStatus = "/openhealth.v1.HealthStore/GetRequestStatus"
    case requestAuthorization = "/openhealth.v1.HealthStore/RequestAuthorization"
    case authorizationStatus = "/openhealth.v1.HealthStore/AuthorizationStatus"
    case save = "/openhealth.v1.HealthStore/Save"
    case querySamples = "/openhealth.v1.HealthStore/QuerySamples"
    case queryAnchored = "/openhealth.v1.HealthStore/QueryAnchored"
    case observeChanges = "/openhealth.v1.HealthStore/ObserveChanges"
    case acknowledgeObserverUpdate = "/openhealth.v1.HealthStore/AcknowledgeObserverUpdate"
    case querySources = "/openhealth.v1.HealthStore/QuerySources"
    case addSamplesToWorkout = "/openhealth.v1.HealthStore/AddSamplesToWorkout"
    case insertRouteData = "/openhealth.v1.HealthStore/InsertRouteData"
    case finishRoute = "/openhealth.v1.HealthStore/FinishRoute"
    case queryRouteData = "/openhealth.v1.HealthStore/QueryRouteData"
    case querySeriesData = "/openhealth.v1.HealthStore/QuerySeriesData"
    case deleteObjects = "/openhealth.v1.HealthStore/DeleteObjects"
    case deleteMatching = "/openhealth.v1.HealthStore/DeleteMatching"
    case queryStatistics = "/openhealth.v1.HealthStore/QueryStatistics"
    case queryStatisticsCollection = "/openhealth.v1.HealthStore/QueryStatisticsCollection"
    case getCharacteristic = "/openhealth.v1.HealthStore/GetCharacteristic"
    case queryCorrelations = "/openhealth.v1.HealthStore/QueryCorrelations"
    case preferredUnits = "/openhealth.v1.HealthStore/PreferredUnits"
    case enableBackgroundDelivery = "/openhealth.v1.HealthStore/EnableBackgroundDelivery"
    case disableBackgroundDelivery = "/openhealth.v1.HealthStore/DisableBackgroundDelivery"
    case disableAllBackgroundDeliveries = "/openhealth.v1.HealthStore/DisableAllBackgroundDeliveries"
    case queryActivitySummaries = "/openhealth.v1.HealthStore/QueryActivitySummaries"
    case watchStatisticsCollection = "/openhealth.v1.HealthStore/WatchStatisticsCollection"
    case watchActivitySummaries = "/openhealth.v1.HealthStore/WatchActivitySummaries"
    case currentSource = "/openhealth.v1.HealthStore/CurrentSource"
    /// HKHealthStore.requestPerObjectReadAuthorization (per_object.proto; the request is a SampleQuery).
    case requestPerObjectReadAuthorization = "/openhealth.v1.HealthStore/RequestPerObjectReadAuthorization"
    /// HKDocumentQuery's per-document consent: offers the user the undecided documents matching
    /// the query (a SampleQuery); answered at once, before healthd reads anything.
    case offerDocuments = "/openhealth.v1.HealthStore/OfferDocuments"
    /// The user's preferences feed (preferences_feed.proto): HKUserPreferencesDidChangeNotification.
    case watchUserPreferences = "/openhealth.v1.UserPreferencesFeed/WatchUserPreferences"
    /// HKHealthStore.relateWorkoutEffortSample / unrelateWorkoutEffortSample and
    /// HKWorkoutEffortRelationshipQuery (workout_effort.proto).
    case relateWorkoutEffort = "/openhealth.v1.HealthStore/RelateWorkoutEffort"
    case unrelateWorkoutEffort = "/openhealth.v1.HealthStore/UnrelateWorkoutEffort"
    case queryWorkoutEffortRelationships = "/openhealth.v1.HealthStore/QueryWorkoutEffortRelationships"
    /// HKAttachmentStore (attachments.proto): an upload is begin, append each chunk, finish;
    /// the data comes back as a stream of chunks.
    case beginAttachment = "/openhealth.v1.HealthStore/BeginAttachment"
    case appendAttachmentData = "/openhealth.v1.HealthStore/AppendAttachmentData"
    case finishAttachment = "/openhealth.v1.HealthStore/FinishAttachment"
    case listAttachments = "/openhealth.v1.HealthStore/ListAttachments"
    case readAttachmentData = "/openhealth.v1.HealthStore/ReadAttachmentData"
    case removeAttachment = "/openhealth.v1.HealthStore/RemoveAttachment"
}

public enum HealthManagerMethod: String, CaseIterable, Sendable {
    case status = "/openhealth.v1.HealthManager/Status"
    case installApp = "/openhealth.v1.HealthManager/InstallApp"
    case listApps = "/openhealth.v1.HealthManager/ListApps"
    case listRequests = "/openhealth.v1.HealthManager/ListRequests"
    case watchRequests = "/openhealth.v1.HealthManager/WatchRequests"
    case answerRequest = "/openhealth.v1.HealthManager/AnswerRequest"
    /// Per-object read requests and grants (per_object.proto).
    case listPerObjectRequests = "/openhealth.v1.HealthManager/ListPerObjectRequests"
    case answerPerObjectRequest = "/openhealth.v1.HealthManager/AnswerPerObjectRequest"
    case listObjectReadGrants = "/openhealth.v1.HealthManager/ListObjectReadGrants"
    case revokeObjectReadGrants = "/openhealth.v1.HealthManager/RevokeObjectReadGrants"
    case setGrants = "/openhealth.v1.HealthManager/SetGrants"
    case listGrants = "/openhealth.v1.HealthManager/ListGrants"
    case querySamples = "/openhealth.v1.HealthManager/QuerySamples"
    case launchBind = "/openhealth.v1.HealthManager/LaunchBind"
    case getKeyStatus = "/openhealth.v1.HealthManager/GetKeyStatus"
    case rotateKey = "/openhealth.v1.HealthManager/RotateKey"
    case lock = "/openhealth.v1.HealthManager/Lock"
    case unlock = "/openhealth.v1.HealthManager/Unlock"
    case setPasscode = "/openhealth.v1.HealthManager/SetPasscode"
    case changePasscode = "/openhealth.v1.HealthManager/ChangePasscode"
    case removePasscode = "/openhealth.v1.HealthManager/RemovePasscode"
    case listAccessLog = "/openhealth.v1.HealthManager/ListAccessLog"
    case verifyAccessLog = "/openhealth.v1.HealthManager/VerifyAccessLog"
    case listSources = "/openhealth.v1.HealthManager/ListSources"
    case setSourcePriority = "/openhealth.v1.HealthManager/SetSourcePriority"
    case listCharacteristics = "/openhealth.v1.HealthManager/ListCharacteristics"
    case setCharacteristic = "/openhealth.v1.HealthManager/SetCharacteristic"
    case listUnitPreferences = "/openhealth.v1.HealthManager/ListUnitPreferences"
    case setUnitPreference = "/openhealth.v1.HealthManager/SetUnitPreference"
    case listBackgroundDeliveries = "/openhealth.v1.HealthManager/ListBackgroundDeliveries"
    case watchLaunches = "/openhealth.v1.HealthManager/WatchLaunches"
    case reportLaunchOutcome = "/openhealth.v1.HealthManager/ReportLaunchOutcome"
    case listActivityGoals = "/openhealth.v1.HealthManager/ListActivityGoals"
    case setActivityGoals = "/openhealth.v1.HealthManager/SetActivityGoals"
    case queryActivitySummaries = "/openhealth.v1.HealthManager/QueryActivitySummaries"
    case importSamples = "/openhealth.v1.HealthManager/ImportSamples"
    case setDirectConnection = "/openhealth.v1.HealthManager/SetDirectConnection"
    case setNetworkAccess = "/openhealth.v1.HealthManager/SetNetworkAccess"
    case queryRouteData = "/openhealth.v1.HealthManager/QueryRouteData"
    case querySeriesData = "/openhealth.v1.HealthManager/QuerySeriesData"
    case addSamples = "/openhealth.v1.HealthManager/AddSamples"
    case archiveMedication = "/openhealth.v1.HealthManager/ArchiveMedication"
    case deleteSamples = "/openhealth.v1.HealthManager/DeleteSamples"
    case removeApp = "/openhealth.v1.HealthManager/RemoveApp"
    /// The user's view of attachments (attachments.proto): any object's, whatever its source.
    case listAttachments = "/openhealth.v1.HealthManager/ListAttachments"
    case readAttachmentData = "/openhealth.v1.HealthManager/ReadAttachmentData"
    case removeAttachment = "/openhealth.v1.HealthManager/RemoveAttachment"
    /// Each app's storage use and bound (healthctl apps storage).
    case listAppStorage = "/openhealth.v1.HealthManager/ListAppStorage"
    case setAppStorageBound = "/openhealth.v1.HealthManager/SetAppStorageBound"
}

/// Where the SDK finds its connection: health-sandbox puts the inherited descriptor's number here.
public enum LaunchEnvironment {
    public static let socketDescriptorVariable = "OPENHEALTH_SOCKET_FD"
    /// For apps started without the launcher: the app socket's path (else the default).
    public static let appSocketPathVariable = "OPENHEALTH_APP_SOCKET"
    public static let adminSocketPathVariable = "OPENHEALTH_ADMIN_SOCKET"
    /// Why an app was started, when not by the user: `health-sandbox agent` sets it to
    /// `backgroundDeliveryLaunchReason` for a background-delivery launch.
    public static let launchReasonVariable = "OPENHEALTH_LAUNCH_REASON"
    public static let backgroundDeliveryLaunchReason = "background-delivery"
}
