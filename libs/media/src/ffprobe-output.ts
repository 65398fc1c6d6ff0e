/** The subset of `ffprobe -v error -print_format json -show_format -show_streams` output we read. */
export interface FfprobeStream {
  index: number;
  codec_type?: string; // 'video' | 'audio' | 'subtitle' | 'data' | 'attachment'
  codec_name?: string;
  profile?: string; // 'High', 'Main', 'Constrained Baseline', 'LC' (AAC)…
  level?: number; // H.264 level × 10 (31 for 3.1)
  width?: number;
  height?: number;
  sample_aspect_ratio?: string; // '1:1', '4:3', '0:1' (unknown)
  pix_fmt?: string;
  avg_frame_rate?: string; // '30000/1001', '0/0' (unknown)
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  sample_fmt?: string;
  bits_per_sample?: number;
  bits_per_raw_sample?: string;
  start_time?: string;
  duration?: string;
  disposition?: { attached_pic?: number; default?: number };
  tags?: Record<string, string>; // `rotate` (older muxers), `DURATION` (Matroska)
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
  /** Frames decoded (only with `-count_frames`). */
  nb_read_frames?: string;
}

export interface FfprobeFormat {
  format_name?: string;
  start_time?: string;
  duration?: string;
  bit_rate?: string;
}

export interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: FfprobeFormat;
}
