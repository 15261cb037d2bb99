import { fail, mcbError, ok, type Result } from "@mcb/blocks";

/** Image formats a capture can be delivered in. */
export const IMAGE_FORMATS = ["jpeg", "webp", "png"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The default: JPEG at quality 80 (a 640×360 view is a tenth of its PNG; flat colours stay clear). */
export const DEFAULT_FORMAT: ImageFormat = "jpeg";
export const DEFAULT_QUALITY = 80;

export interface EncodedImage {
  readonly data: Buffer;
  readonly mimeType: "image/jpeg" | "image/webp" | "image/png";
  readonly format: ImageFormat;
  /** The lossy encoder's quality (1–100); null for PNG. */
  readonly quality: number | null;
}

/**
 * Re-encodes a rendered PNG as JPEG or WebP at `quality` with sharp (libvips: mozjpeg and libwebp),
 * or returns the PNG as it is. Errors: invalid_request (`reason: "format"` or `"quality"`).
 */
export async function encodeImage(png: Buffer, format: unknown = DEFAULT_FORMAT, quality: unknown = DEFAULT_QUALITY): Promise<Result<EncodedImage>> {
  if (!IMAGE_FORMATS.includes(format as ImageFormat))
    return fail(mcbError("invalid_request", `format must be one of ${IMAGE_FORMATS.join(", ")}`, { reason: "format", allowed: IMAGE_FORMATS }));
  if (format === "png") return ok({ data: png, mimeType: "image/png", format, quality: null });
  if (!(Number.isInteger(quality) && (quality as number) >= 1 && (quality as number) <= 100))
    return fail(mcbError("invalid_request", "quality must be an integer within 1..100", { reason: "quality" }));
  const q = quality as number;
  // Loaded on the first capture: libvips takes a tenth of a second to load, which no other command needs.
  const { default: sharp } = await import("sharp");
  const image = sharp(png);
  const data = format === "jpeg" ? await image.jpeg({ quality: q, mozjpeg: true }).toBuffer() : await image.webp({ quality: q }).toBuffer();
  return ok({ data, mimeType: format === "jpeg" ? "image/jpeg" : "image/webp", format: format as ImageFormat, quality: q });
}

/** The format a file name asks for by its extension (.jpg/.jpeg, .webp, .png); null for another. */
export function formatOfFile(name: string): ImageFormat | null {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext === "jpg" || ext === "jpeg" ? "jpeg" : ext === "webp" ? "webp" : ext === "png" ? "png" : null;
}
