import IMWireCore
import IMWireJSONText

/// The `MsgContent` key tables of the Tencent REST element types whose content is flat, in the
/// order Tencent documents the keys (which is the canonical output order). Image elems, relay
/// (merger) elems and the envelope are not flat and are mapped in ``TIMRESTDecoder`` and
/// ``TIMRESTEncoder``; their keys are listed in the TimRest article (IMWire.docc).
enum TIMRESTContent {
    /// `TIMTextElem`.
    static let text = TIMRESTContentTable<TextElem>([
        .string("Text", "text", \.text, required: true),
    ], object: "a TIMTextElem's MsgContent")

    /// `TIMLocationElem`.
    static let location = TIMRESTContentTable<LocationElem>([
        .string("Desc", "desc", \.desc),
        .double("Latitude", "latitude", \.latitude, required: true),
        .double("Longitude", "longitude", \.longitude, required: true),
    ], object: "a TIMLocationElem's MsgContent")

    /// `TIMFaceElem`.
    static let face = TIMRESTContentTable<FaceElem>([
        .int32("Index", "index", \.index, required: true),
        .utf8Bytes("Data", "data", \.data),
    ], object: "a TIMFaceElem's MsgContent")

    /// `TIMCustomElem`.
    static let custom = TIMRESTContentTable<CustomElem>([
        .utf8Bytes("Data", "data", \.data, required: true),
        .string("Desc", "desc", \.desc),
        .string("Ext", "ext", \.ext),
        .string("Sound", "sound", \.sound),
    ], object: "a TIMCustomElem's MsgContent")

    /// `TIMSoundElem`. SDK 2.x/3.x clients send only `UUID`, `Size` and `Second`.
    static let sound = TIMRESTContentTable<SoundElem>([
        .string("Url", "url", \.url),
        .string("UUID", "uuid", \.uuid, required: true),
        .uint64("Size", "data_size", \.dataSize),
        .uint32("Second", "duration", \.duration),
        .downloadFlag("Download_Flag"),
    ], object: "a TIMSoundElem's MsgContent")

    /// One entry of a `TIMImageElem`'s `ImageInfoArray` (note `URL`, not `Url`).
    static let image = TIMRESTContentTable<Image>([
        .int32("Type", "type", \.timRESTTypeNumber, required: true),
        .uint64("Size", "size", \.size),
        .uint32("Width", "width", \.width),
        .uint32("Height", "height", \.height),
        .string("URL", "url", \.url),
    ], object: "an ImageInfoArray entry")

    /// `TIMFileElem`.
    static let file = TIMRESTContentTable<FileElem>([
        .string("Url", "url", \.url),
        .string("UUID", "uuid", \.uuid, required: true),
        .uint64("FileSize", "file_size", \.fileSize),
        .string("FileName", "file_name", \.fileName),
        .downloadFlag("Download_Flag"),
    ], object: "a TIMFileElem's MsgContent")

    /// `TIMVideoFileElem`.
    static let video = TIMRESTContentTable<VideoElem>([
        .string("VideoUrl", "video_url", \.videoURL),
        .string("VideoUUID", "video_uuid", \.videoUUID, required: true),
        .uint64("VideoSize", "video_size", \.videoSize),
        .uint32("VideoSecond", "duration", \.duration),
        .string("VideoFormat", "video_format", \.videoFormat),
        .downloadFlag("VideoDownloadFlag"),
        .string("ThumbUrl", "snapshot_url", \.snapshotURL),
        .string("ThumbUUID", "snapshot_uuid", \.snapshotUUID),
        .uint64("ThumbSize", "snapshot_size", \.snapshotSize),
        .uint32("ThumbWidth", "snapshot_width", \.snapshotWidth),
        .uint32("ThumbHeight", "snapshot_height", \.snapshotHeight),
        .string("ThumbFormat", "snapshot_format", \.snapshotFormat),
        .downloadFlag("ThumbDownloadFlag"),
    ], object: "a TIMVideoFileElem's MsgContent")
}

extension Image {
    /// ``type`` as its number: REST's `Type` is 1 original, 2 large, 3 thumbnail — the numbering of
    /// ``ImageType``.
    var timRESTTypeNumber: Int32 {
        get { type.rawValue }
        set { type = ImageType(rawValue: newValue) }
    }
}
