export { CAPTURE_LIMITS, EYE_HEIGHT, resolvePose, type CameraPose, type ResolvedPose } from "./CameraPose.js";
export { DEFAULT_VIEW_DISTANCE, MAX_VIEW_DISTANCE, captureCamera, type BlockSource, type Capture, type CaptureOptions } from "./CameraCapture.js";
export { FRAME_MARGIN, FRAME_PIXELS, FRAME_SIDES, cameraAxes, framePose, frameSize, lookAtAngles, viewTiles, type FrameSide } from "./CameraFrame.js";
export { tilePngs } from "./TiledPng.js";
export { PREVIEW_MARKS, markedState, markOf, type PreviewMark } from "./PreviewMarks.js";
