/** The admin screen's messages for the keyword upload and the AI tools, word for word. */
export const INVALID_CSV_TEXT = 'Please select a valid CSV file';
export const CSV_FAILED_TEXT = 'Failed to process CSV file';
export const UPLOAD_FAILED_TEXT = 'Failed to upload keywords';
export const GENERATE_FAILED_TEXT = 'Failed to generate AI content';
export const SUGGESTIONS_FAILED_TEXT = 'Failed to get keyword suggestions';
export const WEEKLY_PLAN_FAILED_TEXT = 'Failed to create weekly plan';
