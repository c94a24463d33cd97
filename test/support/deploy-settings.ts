/** The deploy settings an infrastructure test passes (`-c senderEmail=...`), as a deploy must. */
export const TEST_DEPLOY_SETTINGS = { senderEmail: 'no-reply@creator-commerce.example' };
