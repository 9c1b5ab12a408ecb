import QRCode from "qrcode";

/** A QR code for a link, as an SVG element (crisp at any print size). Medium error correction survives a worn page. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
