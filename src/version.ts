/** Version of this library, written into every MusicXML `<encoding>`. Kept equal to package.json by a test. */
export const LIBRARY_VERSION = '0.1.0';
