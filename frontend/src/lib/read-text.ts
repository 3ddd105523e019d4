/** A file's text (UTF-8), through FileReader: Blob.text() is missing in older browsers. */
export function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable file'));
    reader.readAsText(file);
  });
}
