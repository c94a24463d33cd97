/** What other capabilities call on images (catalog): store an uploaded image, remove it, check references. */
export { deleteImage, missingImageIds, uploadImage } from './service';
