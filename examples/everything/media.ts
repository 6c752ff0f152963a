/** Tiny media payloads (base64) for the image, audio and binary-resource scenarios. */

/** A 1×1 red pixel, PNG (RGB, 8 bits per channel): 69 bytes. */
export const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/** 10 ms of silence, WAV (PCM, mono, 8 kHz, 8 bits: 80 samples of 0x80): 124 bytes. */
export const SILENT_WAV =
  "UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgA==";
